import { describe, expect, it } from 'vitest';
import { jobChaosOptions } from '../../../src/certify/chaos-options.ts';
import { chaosOnLanes } from '../../../src/certify/lanes.ts';
import { models, PATTERNS } from '../../../src/patterns/index.ts';
import { inMemorySubjects, StubCluster } from '../runner/stub-cluster.ts';

// A lane whose cluster cannot be healed ends only its own run: a fresh cluster takes the lane over
// from its next draw, the run it could not finish is discarded and reported, and the job is judged
// whole. Without a replacement, or when the fresh cluster is lost too, it is the job's environment
// failure, as on one cluster. (On stubs: what is checked is the lanes' bookkeeping, not a server.)

const options = (runs: number) =>
  jobChaosOptions({
    runs,
    seed: 11,
    faults: [],
    timeLimitMs: 600_000,
    shrinkRuns: 0,
    nodeTimeoutMs: 1_000,
    clients: 2,
    keys: 1,
  });
const lane = (stub: StubCluster) => ({ cluster: stub.asCluster(), subjects: inMemorySubjects(models.lock, 8) });
/** A cluster that fails its second run and then cannot be healed. */
const dying = () => {
  const stub: StubCluster = new StubCluster({
    topologyFails: (call) => call === 2,
    healFails: () => stub.topologyCalls >= 2,
  });
  return stub;
};

describe('a lane whose cluster is lost', () => {
  it('is replaced once: every run asked is judged, the unfinished one discarded with its cause', async () => {
    const fresh = new StubCluster();
    let replaced = 0;
    const outcome = await chaosOnLanes(
      [lane(new StubCluster()), lane(dying())],
      PATTERNS.lock,
      options(8),
      undefined,
      async () => (replaced++, lane(fresh)),
    );
    expect(replaced).toBe(1);
    expect(outcome.environmentFailure).toBeUndefined();
    expect(outcome.tally.runs).toBe(8);
    expect(outcome.tally.discarded).toBe(1);
    expect(outcome.tally.discardCauses[0]).toMatch(
      /^cluster replaced: the cluster could not be healed between runs: CLUSTERDOWN/,
    );
    expect(fresh.topologyCalls).toBe(3); // the lane's 4 runs: 1 before, 3 after
    expect(outcome.shortOfRuns).toBe(false);
  });

  it('without a replacement, or when the replacement is lost too, the job ends as an environment failure', async () => {
    const alone = await chaosOnLanes([lane(new StubCluster()), lane(dying())], PATTERNS.lock, options(8));
    expect(alone.environmentFailure).toMatch(/could not be healed/);
    const twice = await chaosOnLanes(
      [lane(new StubCluster()), lane(dying())],
      PATTERNS.lock,
      options(8),
      undefined,
      async () => lane(dying()),
    );
    expect(twice.environmentFailure).toMatch(/could not be healed/);
    expect(twice.tally.runs).toBe(4 + 2); // the other lane's 4, and one run on each lost cluster
    const refused = await chaosOnLanes(
      [lane(new StubCluster()), lane(dying())],
      PATTERNS.lock,
      options(8),
      undefined,
      async () => {
        throw new Error('no port left');
      },
    );
    expect(refused.environmentFailure).toMatch(/could not be healed/);
  });
});
