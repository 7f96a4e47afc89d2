import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster } from '../../src/cluster/local.ts';
import { FAULT_NAMES } from '../../src/generator/index.ts';
import { describeFailure, referenceChaos } from '../../src/certify/reference-chaos.ts';

/**
 * The correct implementations must pass every seeded run with every fault enabled. CI runs 16
 * idempotency runs and 8 of each other pattern (other suites certify the reference again through
 * lua:, module: and cmd:); `npx tsx bench/soak.ts` runs until a time limit
 * (hundreds of runs per pattern measured: see README). CHAOSLUA_FALSE_ALARM_RUNS raises it.
 */
const RUNS = Number(process.env.CHAOSLUA_FALSE_ALARM_RUNS ?? 16);
const OTHER_RUNS = Math.max(8, Math.ceil(RUNS / 3));

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start();
});
afterAll(async () => {
  await cluster?.dispose();
});

describe('zero false alarms: the reference implementations pass under every fault', () => {
  it(`idempotency: ${RUNS} seeded runs, all faults`, async () => {
    const outcome = await referenceChaos(cluster, { pattern: 'idempotency', runs: RUNS, seed: 20261130, faults: FAULT_NAMES });
    expect(outcome.tally.runs).toBe(RUNS);
    expect(outcome.tally.faults).toBeGreaterThan(0);
    expect(outcome.failure, describeFailure(outcome)).toBeUndefined();
  });

  it(`lock: ${OTHER_RUNS} seeded runs, all faults`, async () => {
    const runs = OTHER_RUNS;
    const outcome = await referenceChaos(cluster, { pattern: 'lock', runs, seed: 7, faults: FAULT_NAMES });
    expect(outcome.tally.runs).toBe(runs);
    expect(outcome.failure, describeFailure(outcome)).toBeUndefined();
  });

  it(`ratelimit: ${OTHER_RUNS} seeded runs, all faults`, async () => {
    const runs = OTHER_RUNS;
    const outcome = await referenceChaos(cluster, { pattern: 'ratelimit', runs, seed: 11, faults: FAULT_NAMES });
    expect(outcome.tally.runs).toBe(runs);
    expect(outcome.failure, describeFailure(outcome)).toBeUndefined();
  });

  it('an undecided run never certifies, and the search goes on past it for a named violation', async () => {
    // A search budget of one state leaves every key with a few operations undecided.
    const outcome = await referenceChaos(cluster, { pattern: 'idempotency', runs: 3, seed: 5, faults: [], check: { budget: 1, minimise: false } });
    expect(outcome.tally.runs).toBe(3);
    expect(outcome.tally.failures).toBeGreaterThan(0);
    expect(outcome.failure?.result.verdict).toBe('unknown');
    expect(outcome.failure?.result.violations).toEqual([]);
  });
});
