import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { main } from '../../src/cli/main.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots, reportRoot } from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// A ready client for module: implementations, so a store can use it at once: createStore gets an ioredis Cluster whose
// slot table covers every slot and whose masters all answer; whatever createStore throws or rejects
// with is a finding with a report, never a crash.

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/bad-impls');

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});
afterAll(() => removeReportRoots());

const job = (file: string, runs = 2) =>
  runJob(
    certifyOptions({
      pattern: 'lock',
      runs: String(runs),
      seed: '18',
      faults: 'latency,lease-expiry',
      'shrink-runs': '0',
    }),
    moduleOpener(PATTERNS.lock, path.join(FIXTURES, file)),
    quietIo,
    cluster,
  );

describe('module: createStore gets a ready client', () => {
  it('one that reads the slot table and every master at once opens, runs and breaks nothing', async () => {
    const result = await job('slot-table-store.ts');
    expect(result.outcome.tally.runs).toBe(2);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.every((s) => s.passed)).toBe(true);
    expect(result.evidence.operations.find((o) => o.op === 'acquire')!.ok).toBeGreaterThan(0);
  });

  it('one that throws an Error: a finding naming it, a report, no runs', async () => {
    const result = await job('throwing-create-store.ts');
    expect(result.findings).toEqual([
      `module-create-store: module:${path.join(FIXTURES, 'throwing-create-store.ts')}: createStore failed: cannot build the store: no prefix configured`,
    ]);
    expect(result.passed).toBe(false);
    expect(result.outcome.tally.runs).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).findings).toEqual(result.findings);
  });

  it('one that rejects with a plain object: the object shown, not [object Object]', async () => {
    const result = await job('rejecting-create-store.ts');
    expect(result.findings).toEqual([
      expect.stringMatching(/createStore failed: \{ code: 'E_NO_SCRIPTS', detail: 'script cache empty' \}$/),
    ]);
    expect(result.passed).toBe(false);
  });

  it('through the CLI: exit 1, certificate and report written, one line per finding, no stack trace', async () => {
    const root = reportRoot();
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) } };
    const file = path.join(FIXTURES, 'throwing-create-store.ts');
    const code = await main(
      ['certify', '--impl', `module:${file}`, '--pattern', 'lock', '--runs', '2', '--seed', '18', '--report', root],
      io,
    );
    expect(code).toBe(1);
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).toContain('FAIL implementation: module-create-store: ');
    const [folder] = fs.readdirSync(root).filter((f) => fs.statSync(path.join(root, f)).isDirectory());
    const certificate = JSON.parse(fs.readFileSync(path.join(root, folder, 'certificate.json'), 'utf8'));
    expect(certificate.certified).toBe(false);
    expect(certificate.findings).toEqual([expect.stringContaining('createStore failed: cannot build the store')]);
  });
});
