import fs from 'node:fs';
import path from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { Job } from 'kubernetes-models/batch/v1';
import { PersistentVolumeClaim } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { run as certifyCli } from '../../../src/cli/certify.ts';
import { run as mergeCli } from '../../../src/cli/merge.ts';

// The pipelines users copy (examples/ci/) must be valid where they land: the GitHub Actions workflow
// against the workflow JSON Schema (SchemaStore's, as @action-validator/core embeds it), the
// Kubernetes manifests against the Kubernetes OpenAPI schemas (kubernetes-models' validate()). And
// they must use chaoslua as it is: every flag they pass exists, and the shards they start are the
// shards they merge.

const dir = path.resolve(import.meta.dirname, '../../../examples/ci');
const workflowText = fs.readFileSync(path.join(dir, 'github-actions.yml'), 'utf8');
const k8sText = fs.readFileSync(path.join(dir, 'kubernetes-indexed-job.yaml'), 'utf8');

/** The help text of a command, to check the examples' flags against. */
async function helpOf(run: (argv: string[], io: never) => Promise<number>): Promise<string> {
  const out: string[] = [];
  await run(['--help'], { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } } as never);
  return out.join('');
}

/** `--flag`s on the lines of a shell script that run `chaoslua <command>` (with their continuation lines). */
function flagsOf(script: string, command: string): string[] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .filter((line) => line.includes(`chaoslua ${command}`))
    .flatMap((line) => line.match(/--[a-z][a-z-]*/g) ?? []);
}

describe('examples/ci/github-actions.yml', () => {
  const workflow = parseYaml(workflowText) as {
    env: Record<string, string | number>;
    jobs: Record<
      string,
      {
        needs?: string;
        if?: string;
        strategy?: { matrix: { shard: number[] } };
        steps: { uses?: string; run?: string; with?: Record<string, unknown> }[];
      }
    >;
  };
  const scripts = (job: string) => workflow.jobs[job].steps.map((s) => s.run ?? '').join('\n');

  it('is a valid workflow for the workflow schema', () => {
    expect(validateWorkflow(workflowText).errors).toEqual([]);
  });

  it('the validator does catch a broken workflow (the check above can fail)', () => {
    expect(validateWorkflow(workflowText.replace('runs-on: ubuntu-24.04', 'runs_on: ubuntu-24.04')).errors).not.toEqual(
      [],
    );
    expect(validateWorkflow(workflowText.replace('strategy:', 'strategie:')).errors).not.toEqual([]);
  });

  it('runs shards 0 .. n-1 of one seed and merges them, whatever the shards exited with', () => {
    const shards = workflow.env.SHARDS;
    expect(workflow.jobs.certify.strategy?.matrix.shard).toEqual(Array.from({ length: Number(shards) }, (_, i) => i));
    expect(scripts('certify')).toMatch(/--shard "\$\{\{ matrix\.shard \}\}\/\$SHARDS" --seed "\$seed"/);
    expect(workflow.jobs.merge.needs).toBe('certify');
    expect(workflow.jobs.merge.if).toMatch(/!cancelled\(\)/);
    expect(scripts('merge')).toMatch(/chaoslua merge shards\/chaoslua-shard-\*\/\*\/certificate\.json/);
  });

  it('publishes JUnit and uploads the reports', () => {
    const uses = (job: string) => workflow.jobs[job].steps.map((s) => s.uses ?? '');
    expect(uses('certify')).toContain('actions/upload-artifact@v4');
    expect(workflow.jobs.certify.steps.find((s) => s.uses === 'actions/upload-artifact@v4')?.with?.path).toBe(
      'reports/',
    );
    const junit = workflow.jobs.merge.steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'));
    expect(String(junit?.with?.report_paths)).toMatch(/merged\/junit\.xml/);
    expect(scripts('merge')).toMatch(/--junit merged\/junit\.xml/);
  });

  it('passes only flags chaoslua has', async () => {
    const certifyHelp = await helpOf(certifyCli);
    const mergeHelp = await helpOf(mergeCli);
    const certifyFlags = flagsOf(scripts('certify'), 'certify');
    expect(certifyFlags).toEqual(expect.arrayContaining(['--shard', '--seed', '--runs']));
    for (const flag of certifyFlags) expect(certifyHelp, flag).toContain(`${flag} `);
    for (const flag of flagsOf(scripts('merge'), 'merge')) expect(mergeHelp, flag).toContain(`${flag} `);
  });
});

describe('examples/ci/kubernetes-indexed-job.yaml', () => {
  const docs = parseAllDocuments(k8sText).map(
    (d) => d.toJS() as { kind: string; metadata: { name: string }; spec: Record<string, unknown> },
  );
  const job = (name: string) =>
    docs.find((d) => d.kind === 'Job' && d.metadata.name === name) as unknown as {
      spec: {
        completionMode?: string;
        completions?: number;
        parallelism?: number;
        template: { spec: { containers: { args: string[] }[]; initContainers?: { args: string[] }[] } };
      };
    };

  it('every document is valid for the Kubernetes schema of its kind', () => {
    expect(docs.map((d) => d.kind)).toEqual(['PersistentVolumeClaim', 'Job', 'Job']);
    for (const d of docs) {
      const model = d.kind === 'Job' ? new Job(d as never) : new PersistentVolumeClaim(d as never);
      expect(() => model.validate(), d.metadata.name).not.toThrow();
    }
  });

  it('the validator does catch a broken manifest (the check above can fail)', () => {
    const broken = structuredClone(job('chaoslua-certify')) as unknown as Record<string, Record<string, unknown>>;
    broken.spec.completions = 'four';
    expect(() =>
      new Job({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'x' }, ...broken } as never).validate(),
    ).toThrow(/completions/);
  });

  it('an Indexed Job runs shards 0 .. n-1 of one seed, and the merge waits for all n', () => {
    const certify = job('chaoslua-certify');
    expect(certify.spec.completionMode).toBe('Indexed');
    const n = certify.spec.completions!;
    expect(certify.spec.parallelism).toBe(n);
    const script = certify.spec.template.spec.containers[0].args[0];
    expect(script).toContain(`--shard "$JOB_COMPLETION_INDEX/${n}" --seed "$SEED"`);
    const merge = job('chaoslua-merge');
    expect(merge.spec.template.spec.initContainers?.[0].args[0]).toContain(`-ge ${n} ]`);
    expect(merge.spec.template.spec.containers[0].args[0]).toMatch(
      /chaoslua merge \/results\/shard-\*\/reports\/\*\/certificate\.json/,
    );
  });

  it('passes only flags chaoslua has', async () => {
    const certifyHelp = await helpOf(certifyCli);
    const mergeHelp = await helpOf(mergeCli);
    const certifyFlags = flagsOf(job('chaoslua-certify').spec.template.spec.containers[0].args[0], 'certify');
    expect(certifyFlags).toEqual(expect.arrayContaining(['--shard', '--seed']));
    for (const flag of certifyFlags) expect(certifyHelp, flag).toContain(`${flag} `);
    for (const flag of flagsOf(job('chaoslua-merge').spec.template.spec.containers[0].args[0], 'merge'))
      expect(mergeHelp, flag).toContain(`${flag} `);
  });
});
