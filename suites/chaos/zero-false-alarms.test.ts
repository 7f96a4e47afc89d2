import { describe, expect, it } from 'vitest';
import { referenceChaos } from '../../src/certify/reference-chaos.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';
import { falseAlarmSuite } from './support/false-alarms-suite.ts';

// A few runs per pattern here; the long sweep is zero-false-alarms.full.test.ts (npm run test:full).
falseAlarmSuite({
  idempotency: { runs: 2, seed: 20261130 },
  lock: { runs: 1, seed: 7 },
  ratelimit: { runs: 1, seed: 11 },
  semaphore: { runs: 1, seed: 13 },
  gcra: { runs: 1, seed: 17 },
});

describe('an undecided run', () => {
  it('never certifies, and the search goes on past it for a named violation', async () => {
    // A search budget of one state leaves every key with a few operations undecided.
    const outcome = await withSharedCluster((cluster) =>
      referenceChaos(cluster, {
        pattern: PATTERNS.idempotency,
        runs: 3,
        seed: 5,
        faults: [],
        check: { budget: 1, minimise: false },
      }),
    );
    expect(outcome.tally.runs).toBe(3);
    expect(outcome.tally.failures).toBeGreaterThan(0);
    expect(outcome.failure?.result.verdict).toBe('unknown');
    expect(outcome.failure?.result.violations).toEqual([]);
  });
});
