// The job's options as constraints: defaults in one place, every limit checked once, the option
// named when one is refused; the CLI's flags come out of it exactly as the flags always did.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOB_DEFAULTS, JOB_INTEGERS, jobOptionsFrom, JobOptionError } from '../../../src/certify/options.ts';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import { FAULT_NAMES } from '../../../src/faults/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const refused = (f: () => unknown): JobOptionError => {
  try {
    f();
  } catch (error) {
    if (error instanceof JobOptionError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('jobOptionsFrom', () => {
  it('fills every default', () => {
    const o = jobOptionsFrom('certify', { seed: 5 });
    expect(o).toEqual({
      command: 'certify',
      pattern: PATTERNS[JOB_DEFAULTS.pattern],
      runs: 40,
      seed: 5,
      path: undefined,
      faults: [...FAULT_NAMES],
      // No --faults: all, which takes script-evict on a server that evicts (src/certify/partition-faults.ts).
      allFaults: true,
      settings: { lease: 250, lease2: 500, ttl: 800, ttl2: 3_000 },
      faultSettings: { 'clock-skew': 50, 'clock-step': 2_000 },
      timeLimitMs: 300_000,
      clients: undefined,
      keys: undefined,
      cluster: 'local',
      clusters: 1,
      reportRoot: path.resolve('reports'),
      json: false,
      nodeTimeoutMs: 1_000,
      shrinkRuns: 30,
      shrinkTimeMs: 30_000,
      allowDestructive: false,
    });
    const drawn = jobOptionsFrom('run').seed;
    expect(Number.isInteger(drawn) && drawn >= 0 && drawn <= JOB_INTEGERS.seed.max).toBe(true);
  });

  it('refuses an integer out of its limits, naming the option and its limits', () => {
    for (const [option, value] of [
      ['runs', 0],
      ['seed', -1],
      ['clients', 9],
      ['keys', 17],
      ['nodeTimeoutMs', 99],
      ['shrinkRuns', 10_001],
      ['runs', 1.5],
      ['runs', Number.NaN],
    ] as const) {
      const e = refused(() => jobOptionsFrom('run', { [option]: value }));
      const { min, max } = JOB_INTEGERS[option];
      expect(e.option).toBe(option);
      expect(e.message).toBe(`${option} must be an integer in [${min}, ${max}], got ${JSON.stringify(value)}`);
    }
    expect(jobOptionsFrom('run', { runs: 1_000_000, clients: 8, keys: 16, shrinkRuns: 0 })).toMatchObject({
      runs: 1_000_000,
      clients: 8,
      keys: 16,
      shrinkRuns: 0,
    });
  });

  it('refuses an unknown pattern or fault, a path without its seed, a durability out of its limits', () => {
    expect(refused(() => jobOptionsFrom('run', { pattern: 'queue' })).message).toBe(
      'pattern must be idempotency, lock, ratelimit, semaphore or gcra, or a pattern file (./my-pattern.mjs), got "queue"',
    );
    expect(refused(() => jobOptionsFrom('run', { faults: ['latency', 'meteor' as never] })).option).toBe('faults');
    expect(refused(() => jobOptionsFrom('run', { path: '3:1' })).needs).toBe('seed');
    expect(refused(() => jobOptionsFrom('run', { durability: { replicas: 0, timeoutMs: 100 } })).option).toBe(
      'durability',
    );
    expect(jobOptionsFrom('run', { seed: 1, path: '3:1', durability: { replicas: 1, timeoutMs: 100 } })).toMatchObject({
      path: '3:1',
      durability: { replicas: 1, timeoutMs: 100 },
    });
  });
});

describe('the CLI over the job options', () => {
  it('gives the same options the flags gave', () => {
    const o = jobOptions('run', {
      pattern: 'lock',
      runs: '3',
      seed: '7',
      faults: 'latency',
      'time-limit': '90s',
      clients: '2',
      keys: '1',
      'node-timeout': '2000',
      'shrink-runs': '0',
      durability: 'wait:1:50',
    });
    expect(o.pattern).toBe(PATTERNS.lock);
    expect(o).toMatchObject({
      command: 'run',
      runs: 3,
      seed: 7,
      faults: ['latency'],
      timeLimitMs: 90_000,
      clients: 2,
      keys: 1,
      nodeTimeoutMs: 2_000,
      shrinkRuns: 0,
      durability: { replicas: 1, timeoutMs: 50 },
    });
  });

  it('names the flag and the text given when the job options refuse it', () => {
    expect(() => jobOptions('run', { runs: '0' })).toThrow("run: --runs must be an integer in [1, 1000000], got '0'");
    expect(() => jobOptions('certify', { 'node-timeout': '1e3' })).toThrow(
      "certify: --node-timeout must be an integer in [100, 60000], got '1e3'",
    );
    expect(() => jobOptions('run', { 'shrink-runs': '-1' })).toThrow(
      "run: --shrink-runs must be an integer in [0, 10000], got '-1'",
    );
    expect(() => jobOptions('run', { pattern: 'queue' })).toThrow(
      "run: --pattern must be idempotency, lock, ratelimit, semaphore or gcra, or a pattern file (./my-pattern.mjs), got 'queue'",
    );
    expect(() => jobOptions('run', { path: '3:1' })).toThrow('run: --path needs the --seed it was found with');
  });
});
