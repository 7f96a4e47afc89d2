// A pattern's settings as a job takes them: declared by the pattern (name -> limits and default),
// checked once with the other job options, each problem one line naming what is wrong (exit 2
// through the CLI, before any cluster starts), and every setting filled in the job's options.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobOptionsFrom, JobOptionError, JobSettingError } from '../../../src/certify/options.ts';
import { fillSettings, SettingError } from '../../../src/generator/settings.ts';
import { describeSettings, settingsFlags } from '../../../src/plan/settings.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { cli, forbidClusters, STACK_FRAME } from '../cli/support.ts';

const refused = (f: () => unknown): JobSettingError => {
  try {
    f();
  } catch (error) {
    if (error instanceof JobSettingError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('fillSettings', () => {
  it("fills every declared setting in the pattern's order, the given value or the default", () => {
    expect(fillSettings(PATTERNS.ratelimit)).toEqual({ limit: 3, window: 1 });
    expect(Object.keys(fillSettings(PATTERNS.ratelimit, { window: 3, limit: 5 }))).toEqual(['limit', 'window']);
    expect(fillSettings(PATTERNS.ratelimit, { window: 10 })).toEqual({ limit: 3, window: 10 });
    expect(fillSettings(PATTERNS.lock)).toEqual({ lease: 250, lease2: 500 });
    expect(fillSettings({ name: 'bare' })).toEqual({});
  });

  it('refuses a name the pattern lacks, naming the pattern and the settings it has', () => {
    expect(() => fillSettings(PATTERNS.ratelimit, { windowSeconds: 3 })).toThrow(
      new SettingError('windowSeconds', "ratelimit has no setting 'windowSeconds' (its settings: limit, window)", 3),
    );
    expect(() => fillSettings(PATTERNS.idempotency, { window: 3 })).toThrow(
      "idempotency has no setting 'window' (its settings: lease, lease2, ttl, ttl2), got 3",
    );
    expect(() => fillSettings({ name: 'bare' }, { window: 3 })).toThrow(
      "bare has no setting 'window' (it has none), got 3",
    );
    // Not a property of every object.
    expect(() => fillSettings(PATTERNS.ratelimit, { toString: 1 } as never)).toThrow(/no setting 'toString'/);
  });

  it('refuses a value out of its limits or not an integer, naming the setting and its limits', () => {
    for (const [name, value] of [
      ['window', 0],
      ['window', 11],
      ['limit', 0],
      ['limit', 11],
      ['window', 2.5],
      ['limit', Number.NaN],
    ] as const) {
      const { min, max } = PATTERNS.ratelimit.settings?.[name] ?? { min: Number.NaN, max: Number.NaN };
      expect(() => fillSettings(PATTERNS.ratelimit, { [name]: value }), `${name}=${value}`).toThrow(
        `${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(value)}`,
      );
    }
  });

  it('reads back as --set takes them', () => {
    expect(describeSettings({ limit: 3, window: 3 })).toBe('limit=3 window=3');
    expect(settingsFlags({ limit: 3, window: 3 })).toEqual(['--set', 'limit=3', '--set', 'window=3']);
  });
});

describe('jobOptionsFrom with settings', () => {
  it("fills the pattern's settings, and gives a pattern without any none", () => {
    expect(jobOptionsFrom('certify', { pattern: 'ratelimit', seed: 1 }).settings).toEqual({ limit: 3, window: 1 });
    expect(jobOptionsFrom('certify', { pattern: 'ratelimit', seed: 1, settings: { window: 3 } }).settings).toEqual({
      limit: 3,
      window: 3,
    });
    expect(jobOptionsFrom('certify', { pattern: 'lock', seed: 1 }).settings).toEqual({ lease: 250, lease2: 500 });
  });

  it('refuses a bad setting as the option settings, in one line', () => {
    const unknown = refused(() => jobOptionsFrom('certify', { pattern: 'ratelimit', settings: { windw: 3 } }));
    expect(unknown).toBeInstanceOf(JobOptionError);
    expect(unknown.option).toBe('settings');
    expect(unknown.setting).toBe('windw');
    expect(unknown.message).toBe("settings: ratelimit has no setting 'windw' (its settings: limit, window), got 3");
    expect(refused(() => jobOptionsFrom('run', { pattern: 'ratelimit', settings: { window: 60 } })).message).toBe(
      'settings: window must be an integer in [1, 10], got 60',
    );
    expect(refused(() => jobOptionsFrom('run', { pattern: 'semaphore', settings: { window: 3 } })).problem).toBe(
      "semaphore has no setting 'window' (its settings: lease, lease2)",
    );
  });
});

describe('--set NAME=VALUE on the command line', () => {
  let attempts: string[];
  beforeEach(() => {
    attempts = forbidClusters();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    [['--set', 'windw=3'], "certify: --set windw=3: ratelimit has no setting 'windw' (its settings: limit, window)"],
    [['--set', 'window=0'], 'certify: --set window=0: window must be an integer in [1, 10]'],
    [['--set', 'limit=3', '--set', 'window=3s'], 'certify: --set window=3s: window must be an integer in [1, 10]'],
    [['--set', 'window=-2'], 'certify: --set window=-2: window must be an integer in [1, 10]'],
    [['--set', 'window'], "certify: --set must be NAME=VALUE (e.g. --set window=3), got 'window'"],
    [['--set', 'window=2', '--set', 'window=3'], "certify: --set window given twice ('window=2', 'window=3')"],
  ])('%j: one line, exit 2, no cluster', async (flags, message) => {
    const r = await cli(['certify', '--impl', 'lua:lua/ratelimit', '--pattern', 'ratelimit', ...flags]);
    expect(r.stderr.trim()).toBe(`chaoslua: ${message}`);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(attempts).toEqual([]);
  });

  it('names the pattern and the settings it has, for run too', async () => {
    const r = await cli(['run', '--pattern', 'lock', '--set', 'window=3']);
    expect(r.stderr.trim()).toBe(
      "chaoslua: run: --set window=3: lock has no setting 'window' (its settings: lease, lease2)",
    );
    expect(r.code).toBe(2);
  });

  it("lists every pattern's settings in --help, from the registry", async () => {
    const r = await cli(['certify', '--help']);
    expect(r.stdout).toMatch(/--set NAME=VALUE/);
    expect(r.stdout).toMatch(/ratelimit\s+limit\s+hits a window allows on one key, 1-10 \(default 3\)/);
    expect(r.stdout).toMatch(/\s+window\s+length of a window, in seconds, 1-10 \(default 1\)/);
  });
});
