import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import type { PatternName } from '../../src/patterns/index.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// The post-run TTL probe and libraries that prefix their keys (as many do): it used to read only the
// key handed over, find it absent, and check nothing without saying so.

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/prefixed');

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});
afterAll(() => removeReportRoots());

const job = (pattern: PatternName, file: string, runs = 2) =>
  runJob(
    certifyOptions({ pattern, runs: String(runs), seed: '18', faults: 'latency', 'shrink-runs': '0' }),
    moduleOpener(PATTERNS[pattern], path.join(FIXTURES, file)),
    quietIo,
    cluster,
  );

describe('post-run probes of prefixed keys', () => {
  it('a correct lock under mutex:<key>: each probe says which name it read, nothing is a finding', async () => {
    const result = await job('lock', 'lock-store.ts');
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.every((s) => s.passed)).toBe(true);
    expect(result.probeNotes.length).toBeGreaterThan(0);
    expect(result.probeNotes[0]).toMatch(
      /^run \d+: .*:k\d+: probe read mutex:.*, not the key handed over \(.*\): the implementation stores it under another name$/,
    );
  });

  it('a limiter under rl:<key> that never sets a TTL: the probe reads the prefixed counter and counter-has-ttl fails', async () => {
    const result = await job('ratelimit', 'ratelimit-no-expire-store.ts');
    expect(result.passed).toBe(false);
    const ttl = result.invariants.find((s) => s.invariant === 'counter-has-ttl')!;
    expect(ttl.passed).toBe(false);
    expect(ttl.violations[0].message).toMatch(/was left with no TTL \(PTTL -1\)/);
  });

  it('a lock declaring its prefix (keys: { prefix: "mutex:" }): the probes read the declared keys, with no search and no note', async () => {
    const result = await job('lock', 'lock-declared-store.ts', 1);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.every((s) => s.passed)).toBe(true);
    expect(result.keyMapping).toBe('prefix "mutex:"');
    expect(result.probeNotes).toEqual([]);
  });

  it('a limiter declaring its prefix and answering booleans, never setting a TTL: the declared key is probed and counter-has-ttl fails', async () => {
    const result = await job('ratelimit', 'ratelimit-no-expire-declared-store.ts', 1);
    expect(result.passed).toBe(false);
    expect(result.probeNotes).toEqual([]);
    const ttl = result.invariants.find((s) => s.invariant === 'counter-has-ttl')!;
    expect(ttl.passed).toBe(false);
    expect(ttl.violations[0].message).toMatch(/was left with no TTL \(PTTL -1\)/);
  });
});
