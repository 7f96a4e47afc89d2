import { describe, expect, it } from 'vitest';
import type { ChaosOutcome, RunTally } from '../../../src/certify/chaos.ts';
import { emptyTally, laneRuns, laneShard, mergeOutcomes, sumTallies } from '../../../src/certify/lanes.ts';
import { jobOptionsFrom, JobOptionError } from '../../../src/certify/options.ts';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import { autoClusters, capacityProblem } from '../../../src/cluster/capacity.ts';
import { drawn } from './support/drawn.ts';

// `--clusters N` deals a job's fresh draws to N lanes (src/certify/lanes.ts): lane j runs its share
// of the runs from the draws j, j+N, ... of the seed's one sequence, as the chaos loop takes them.

describe('a job dealt to lanes', () => {
  it.each([
    ['idempotency', 20_261_130, 10, 4],
    ['lock', 7, 7, 3],
    ['semaphore', 13, 5, 2],
    ['gcra', 17, 3, 4],
  ] as const)(
    '%s, seed %i: %i runs on %i lanes run exactly the draws one lane would, whatever N',
    async (pattern, seed, runs, lanes) => {
      const whole = await drawn(pattern, seed, runs);
      const dealt = await Promise.all(
        Array.from({ length: lanes }, (_, j) =>
          drawn(pattern, seed, laneRuns(runs, j, lanes), laneShard(undefined, j, lanes)),
        ),
      );
      expect(dealt.map((d) => d.length).reduce((a, b) => a + b, 0)).toBe(runs);
      expect(dealt.flat().sort()).toEqual([...whole].sort());
      dealt.forEach((d, j) => expect(d).toEqual(whole.filter((_, i) => i % lanes === j)));
    },
  );

  it("lanes inside a shard split that shard's draws, and one lane is the shard itself", async () => {
    const shard = { index: 1, count: 3 };
    expect(laneShard(shard, 0, 1)).toBe(shard);
    expect(laneShard(undefined, 0, 1)).toBeUndefined();
    const whole = await drawn('lock', 5, 6, shard);
    const dealt = await Promise.all([0, 1].map((j) => drawn('lock', 5, 3, laneShard(shard, j, 2))));
    expect(dealt.flat().sort()).toEqual([...whole].sort());
  });

  it('splits the runs as evenly as they go, the remainder to the first lanes', () => {
    expect([0, 1, 2, 3].map((j) => laneRuns(10, j, 4))).toEqual([3, 3, 2, 2]);
    expect([0, 1, 2].map((j) => laneRuns(2, j, 3))).toEqual([1, 1, 0]);
  });
});

const tally = (over: Partial<RunTally>): RunTally => ({ ...emptyTally(), ...over });
const outcome = (over: Partial<ChaosOutcome>): ChaosOutcome => ({
  tally: emptyTally(),
  seed: 1,
  ms: 10,
  interrupted: false,
  shortOfRuns: false,
  ...over,
});

describe("the lanes' outcomes, merged into one job's", () => {
  it('sums the tallies, fault counts and causes included', () => {
    const sum = sumTallies([
      tally({ runs: 2, ops: 10, faults: 3, faultCounts: { 'node-freeze': 2, toxic: 1 }, discardCauses: ['a'] }),
      tally({ runs: 3, ops: 5, faults: 1, faultCounts: { toxic: 1 }, failures: 1, replicationLossNotes: ['run 1'] }),
    ]);
    expect(sum).toMatchObject({
      runs: 5,
      ops: 15,
      faults: 4,
      failures: 1,
      faultCounts: { 'node-freeze': 2, toxic: 2 },
      discardCauses: ['a'],
      replicationLossNotes: ['run 1'],
    });
  });

  it("takes the failure of the lane that failed first, numbered by the job's runs; the lanes it stopped are not an interruption", () => {
    const failure = { firstFailure: { run: 1, seconds: 0.5 } } as ChaosOutcome['failure'];
    const merged = mergeOutcomes(
      [
        outcome({ interrupted: true, tally: tally({ runs: 3 }) }),
        outcome({ failure, path: '4:2', tally: tally({ runs: 2, failures: 1 }) }),
      ],
      { runs: 10, seed: 1 },
      { lane: 1, at: { run: 4, seconds: 2 } },
      50,
    );
    expect(merged.failure!.firstFailure).toEqual({ run: 4, seconds: 2 });
    expect(merged).toMatchObject({ path: '4:2', interrupted: false, shortOfRuns: false, seed: 1, ms: 50 });
    expect(merged.tally.runs).toBe(5);
  });

  it("without a failure: interrupted when a lane hit the time limit, short of runs when discards used up the draws, and an environment failure on any lane is the job's", () => {
    expect(
      mergeOutcomes([outcome({ interrupted: true }), outcome({})], { runs: 4, seed: 1 }, undefined, 1),
    ).toMatchObject({ interrupted: true, shortOfRuns: false });
    expect(
      mergeOutcomes(
        [outcome({ tally: tally({ runs: 2 }) }), outcome({ tally: tally({ runs: 1 }) })],
        { runs: 4, seed: 1 },
        undefined,
        1,
      ),
    ).toMatchObject({ interrupted: false, shortOfRuns: true });
    expect(
      mergeOutcomes([outcome({ tally: tally({ runs: 2 }) }), undefined], { runs: 2, seed: 1 }, undefined, 1),
    ).toMatchObject({ shortOfRuns: false });
    const broken = mergeOutcomes(
      [outcome({ tally: tally({ runs: 2 }) }), outcome({ environmentFailure: 'the cluster could not be healed' })],
      { runs: 4, seed: 1 },
      undefined,
      1,
    );
    expect(broken).toMatchObject({ environmentFailure: 'the cluster could not be healed', shortOfRuns: false });
  });
});

describe('--clusters', () => {
  it('auto is two per core, at most four, as free memory allows, at least one', () => {
    expect(autoClusters({ cores: 2, freeMiB: 20_000 })).toBe(4);
    expect(autoClusters({ cores: 1, freeMiB: 20_000 })).toBe(2);
    expect(autoClusters({ cores: 16, freeMiB: 600 })).toBe(2);
    expect(autoClusters({ cores: 2, freeMiB: 100 })).toBe(1);
  });

  it('a number the free memory cannot hold is named, with what fits', () => {
    expect(capacityProblem(4, { cores: 2, freeMiB: 20_000 })).toBeUndefined();
    expect(capacityProblem(8, { cores: 2, freeMiB: 600 })).toMatch(/free memory \(600 MiB\) holds 2 .*ask for fewer/);
  });

  it('the job options default to 1 and refuse lanes on a cluster the job does not start', () => {
    expect(jobOptionsFrom('certify', {}).clusters).toBe(1);
    expect(jobOptionsFrom('certify', { clusters: 3 }).clusters).toBe(3);
    expect(() => jobOptionsFrom('certify', { clusters: 0 })).toThrow(JobOptionError);
    expect(() => jobOptionsFrom('certify', { clusters: 2, cluster: 'redis://127.0.0.1:7000' })).toThrow(
      /clusters above 1 needs --cluster local/,
    );
  });

  it('the flag takes a number or auto, its default CHAOSLUA_CLUSTERS or auto, and names a bad value in one line', () => {
    const previous = process.env.CHAOSLUA_CLUSTERS;
    try {
      delete process.env.CHAOSLUA_CLUSTERS;
      expect(jobOptions('certify', {}).clusters).toBe(autoClusters());
      expect(jobOptions('certify', { clusters: 'auto' }).clusters).toBe(autoClusters());
      expect(jobOptions('certify', { clusters: '2' }).clusters).toBe(2);
      expect(jobOptions('certify', { cluster: 'redis://127.0.0.1:7000' }).clusters).toBe(1);
      process.env.CHAOSLUA_CLUSTERS = '1';
      expect(jobOptions('certify', {}).clusters).toBe(1);
      expect(() => jobOptions('certify', { clusters: 'two' })).toThrow(
        new UsageError("certify: --clusters must be an integer in [1, 16], got 'two'"),
      );
      expect(() => jobOptions('run', { clusters: '3', cluster: 'redis://127.0.0.1:7000' })).toThrow(
        /^run: --clusters above 1 needs --cluster local/,
      );
    } finally {
      if (previous === undefined) delete process.env.CHAOSLUA_CLUSTERS;
      else process.env.CHAOSLUA_CLUSTERS = previous;
    }
  });
});
