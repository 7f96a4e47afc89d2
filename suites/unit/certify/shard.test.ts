import { describe, expect, it } from 'vitest';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { shardPlan } from '../../../src/certify/shard-plan.ts';
import { jobOptionsFrom } from '../../../src/certify/options.ts';
import type { JobOptions } from '../../../src/certify/types.ts';
import { parseShard, ShardError } from '../../../src/runner/shard.ts';
import { drawn } from './support/drawn.ts';

// The partition behind `certify --shard k/n`: n shards of R runs draw, between them, exactly the
// schedules one job of n*R runs draws from the same seed. The draw loop here is the chaos loop's
// (src/certify/chaos.ts): every fresh draw is counted, a shard runs only its own, and fast-check is
// asked for drawsFor(R + allowance) draws; the schedules are the real generator's.

describe('certify --shard k/n', () => {
  it.each([
    ['idempotency', 20_261_201, 4, 3],
    ['lock', 7, 5, 2],
    ['ratelimit', 99, 3, 4],
  ] as const)(
    '%s, seed %i, R %i, n %i: n shards of R runs cover exactly the draws of one job of n*R runs',
    async (pattern, seed, runs, count) => {
      const whole = await drawn(pattern, seed, runs * count);
      const shards = await Promise.all(
        Array.from({ length: count }, (_, index) => drawn(pattern, seed, runs, { index, count })),
      );
      for (const s of shards) expect(s).toHaveLength(runs);
      // Same schedules, and shard k holds draws k, k+n, k+2n, ... of the whole.
      expect(shards.flat().sort()).toEqual([...whole].sort());
      shards.forEach((s, k) => expect(s).toEqual(whole.filter((_, i) => i % count === k)));
      // And no two shards ran the same draw.
      expect(new Set(shards.flat()).size).toBe(whole.length);
    },
  );

  it("ratelimit with --set window=3: the shards draw the whole job's schedules, every hit with the window set", async () => {
    const settings = { limit: 3, window: 3 };
    const whole = await drawn('ratelimit', 5, 6, undefined, settings);
    const shards = await Promise.all([0, 1].map((index) => drawn('ratelimit', 5, 3, { index, count: 2 }, settings)));
    expect(shards.flat().sort()).toEqual([...whole].sort());
    expect(whole.join('')).toMatch(/"windowSeconds":3/);
    expect(whole.join('')).not.toMatch(/"windowSeconds":1\b/);
  });

  it('one shard of one is the whole job', async () => {
    expect(await drawn('lock', 3, 4, { index: 0, count: 1 })).toEqual(await drawn('lock', 3, 4));
  });

  it('parses k/n and refuses anything else, naming the flag', () => {
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    expect(parseShard('7/8')).toEqual({ index: 7, count: 8 });
    for (const bad of ['8/8', '1/0', '-1/2', '1', 'a/b', '1/2/3', '', '1/1001']) {
      expect(() => parseShard(bad), bad).toThrow(ShardError);
      expect(() => parseShard(bad), bad).toThrow(/--shard/);
    }
  });
});

describe('shardPlan', () => {
  const base: JobOptions = {
    command: 'certify',
    pattern: PATTERNS.idempotency,
    runs: 10,
    seed: 1,
    faults: ['node-freeze', 'failover'],
    timeLimitMs: 1,
    cluster: 'local',
    clusters: 1,
    reportRoot: 'reports',
    json: false,
    nodeTimeoutMs: 1_000,
    shrinkRuns: 0,
  };

  it('names every option that decides what a shard runs, durability included when set', () => {
    expect(shardPlan(base)).toBe('runs 10; faults failover,node-freeze; clients drawn; keys drawn; node-timeout 1000');
    expect(shardPlan({ ...base, durability: { replicas: 1, timeoutMs: 100 } })).toBe(
      'runs 10; faults failover,node-freeze; clients drawn; keys drawn; node-timeout 1000; durability wait:1:100',
    );
  });

  it("names the pattern's settings, as the job options filled them", () => {
    const options = jobOptionsFrom('certify', {
      pattern: 'ratelimit',
      runs: 10,
      seed: 1,
      faults: ['node-freeze'],
      settings: { window: 3 },
    });
    expect(shardPlan(options)).toBe(
      'runs 10; faults node-freeze; clients drawn; keys drawn; node-timeout 1000; settings limit=3 window=3',
    );
    // The defaults are named too: a shard of window 1 and one of window 3 never share a plan.
    expect(shardPlan({ ...options, settings: { limit: 3, window: 1 } })).toBe(
      'runs 10; faults node-freeze; clients drawn; keys drawn; node-timeout 1000; settings limit=3 window=1',
    );
  });
});
