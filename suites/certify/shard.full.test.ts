import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { certificate } from '../../src/cli/certify.ts';
import { mergeCertificates } from '../../src/certify/merge.ts';
import { runJob } from '../../src/certify/job.ts';
import { openerFor } from '../../src/certify/openers/index.ts';
import { projectRoot } from '../../src/cluster/binaries.ts';
import type { Shard } from '../../src/runner/shard.ts';
import { describeImpl, parseImplSpec } from '../../src/impl/impl-spec.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// One small real run of `certify --shard`: two shards of 2 runs, merged, against one job of 4 runs
// from the same seed, on the reference lock. What must agree whatever the timing: the runs judged,
// the operations issued (in total and per operation: they come from the schedules, so equal counts
// mean the same schedules ran), and the invariants' verdicts. Faults are off so that no run is
// discarded and replaced (a replaced draw is where shards and one job may differ: src/runner/shard.ts).

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-shard-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const spec = parseImplSpec(`lua:${path.join(projectRoot, 'lua', 'lock')}`, PATTERNS.lock);

async function certify(runs: number, shard?: Shard) {
  const options = {
    ...jobOptions('certify', { pattern: 'lock', runs: String(runs), seed: '31337', faults: 'none', report: reports }),
    implSpec: describeImpl(spec),
    shard,
  };
  const result = await withSharedCluster((cluster) => runJob(options, openerFor(PATTERNS.lock, spec), quiet, cluster));
  return certificate(options, spec, result);
}

describe('certify --shard k/n on a real cluster', () => {
  it('2 shards of 2 runs, merged, cover what one job of 4 runs does', async () => {
    const whole = await certify(4);
    const shards = [await certify(2, { index: 0, count: 2 }), await certify(2, { index: 1, count: 2 })];
    for (const s of shards) expect(s.findings).toEqual([]); // evidence is not a shard's to judge
    const merged = mergeCertificates(shards.map((c, i) => ({ file: `shard-${i}`, certificate: c })));
    expect(merged.runs).toBe(whole.runs);
    expect(merged.operations).toBe(whole.operations);
    const issued = (c: typeof whole) =>
      Object.fromEntries(Object.entries(c.evidence!.operations).map(([op, o]) => [op, o.issued]));
    expect(issued(merged)).toEqual(issued(whole));
    expect(merged.invariants.map((s) => [s.invariant, s.passed])).toEqual(
      whole.invariants.map((s) => [s.invariant, s.passed]),
    );
    // The reference passes every run (zero false alarms): no shard and not the whole job saw a violation.
    expect(merged.invariants.every((s) => s.passed)).toBe(true);
    expect(merged.merged?.shards.map((s) => s.runs)).toEqual([2, 2]);
  }, 600_000);
});
