// The client-clock mutants (scenarios/mutants/*/*-by-client-clock) decide on the client's clock:
// mutants.test.ts rejects each with every fault of all (client-clock in). Here the same code, on the
// same seed, with client-clock left out: no run fails, so what finds them is the clients' clocks
// disagreeing, not another fault. In test:full (npm test is near its 6 minutes): 2 runs each, about 25 s in all; the longer evidence is the sweep's and
// the 40-run certify jobs in scenarios/mutants/README.md.
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES } from '../../src/generator/index.ts';
import { loadMutants, type Mutant } from './support/catalogue.ts';
import { chaosJob, openerFor } from './support/job.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';

const clockMutants = loadMutants().filter((m) => m.name.endsWith('-by-client-clock'));
const withoutClientClock = FAULT_NAMES.filter((f) => f !== 'client-clock');
const RUNS = 2;

describe("a mutant that trusts the client's clock, with client-clock left out", () => {
  it('is one of three, one per pattern that decides on time', () => {
    expect(clockMutants.map((m) => `${m.pattern}/${m.name}`).sort()).toEqual([
      'idempotency/lease-by-client-clock',
      'ratelimit/window-by-client-clock',
      'semaphore/prune-by-client-clock',
    ]);
  });

  it.each(clockMutants.map((m) => [`${m.pattern}/${m.name}`, m] as const))(
    '%s: no run fails',
    async (_, m: Mutant) => {
      const verdict = await withSharedCluster((cluster) =>
        chaosJob(cluster, m.pattern, openerFor(m.pattern, m.kind, m.impl), {
          seed: m.ciSeed ?? 20_261_130,
          runs: RUNS,
          shrinkRuns: 0,
          faults: withoutClientClock,
        }),
      );
      expect(verdict.runs).toBe(RUNS);
      expect(verdict.messages, `${m.name} failed without client-clock`).toEqual([]);
      expect(verdict.rejected).toBe(false);
    },
    240_000,
  );
});
