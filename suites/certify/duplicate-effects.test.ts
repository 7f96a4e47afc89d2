import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { certificate } from '../../src/cli/certify.ts';
import { summaryText } from '../../src/certify/summary.ts';
import { runJob } from '../../src/certify/job.ts';
import { openerFor } from '../../src/certify/openers/index.ts';
import { projectRoot } from '../../src/cluster/binaries.ts';
import { describeImpl, parseImplSpec } from '../../src/impl/impl-spec.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// Duplicate effects on the real cluster: the reference limiter under the two faults that cut a
// connection while a command is in flight (reply-loss after the command ran, reset-peer), so that
// ioredis resends hits. Whether a resent hit is then *needed* to explain the counters depends on
// timing, so what is asserted holds whatever the timing: the job passes (a hit run twice is no
// violation), and result.json, certificate.json, junit.xml and the summary all carry the same
// duplicate effects, per operation, with one (run, op id) per count. The figures seen are printed.

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-duplicates-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const spec = parseImplSpec(`lua:${path.join(projectRoot, 'lua', 'ratelimit')}`, PATTERNS.ratelimit);

describe('duplicate effects of a ratelimit certify job', () => {
  it('are reported alike in result.json, the certificate, junit.xml and the summary', async () => {
    const flags = {
      pattern: 'ratelimit',
      runs: '3',
      seed: '1313',
      faults: 'reply-loss,reset-peer',
      'shrink-runs': '0',
      report: reports,
    };
    const options = { ...jobOptions('certify', flags), implSpec: describeImpl(spec) };
    const result = await withSharedCluster((cluster) =>
      runJob(options, openerFor(PATTERNS.ratelimit, spec), quiet, cluster),
    );
    const cert = certificate(options, spec, result);
    const json = JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')) as {
      duplicateEffects: Record<string, { count: number; ops: { run: number; id: number }[] }>;
      duplicateFindings: string[];
      faults: Record<string, number>;
    };
    const junit = fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8');
    const hits = json.duplicateEffects.hit;
    console.info(
      `duplicate effects, seed 1313, 3 runs: ${hits.count} hit(s) ${JSON.stringify(hits.ops)}; faults ${JSON.stringify(json.faults)}`,
    );

    // The faults that cut connections fired (reply-loss is a command fault, reset-peer a toxic).
    expect((json.faults['reply-loss'] ?? 0) + (json.faults.toxic ?? 0)).toBeGreaterThan(0);
    // A hit run twice is no violation of the reference.
    expect(result.invariants.every((s) => s.passed)).toBe(true);
    expect(Object.keys(json.duplicateEffects)).toEqual(['hit']);
    expect(hits.ops).toHaveLength(hits.count);
    for (const o of hits.ops) expect(o.run).toBeGreaterThanOrEqual(1);
    expect(cert.duplicateEffects).toEqual({ hit: hits.count });
    expect(junit).toContain(`<property name="duplicate-effects.hit" value="${hits.count}"/>`);
    expect(summaryText(options, result)).toContain(
      `duplicate effects (operations only a second execution explains): hit ${hits.count}`,
    );
    // ratelimit declares a hit counted twice a finding, reported beside the certificate, never failing it.
    expect(json.duplicateFindings).toHaveLength(hits.count > 0 ? 1 : 0);
    if (hits.count > 0) expect(json.duplicateFindings[0]).toMatch(/^duplicate-hit: /);
    expect(cert.duplicateFindings).toEqual(json.duplicateFindings);
    expect(result.findings.filter((f) => f.startsWith('duplicate-'))).toEqual([]);
  }, 600_000);
});
