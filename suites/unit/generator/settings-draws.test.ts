// A pattern's settings (--set) reach the sessions through the generator's options, and the defaults
// change nothing: a seed draws exactly the schedule it drew when the rate limiter's limit and window
// were constants (seeds are pinned across the suites, and a --seed/--path re-run draws again).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FAULT_NAMES,
  scheduleArbitrary,
  scheduleOptions,
  type Schedule,
  type ScheduleConstraints,
} from '../../../src/generator/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const SEEDS = [1, 7, 1303, 20_261_201];

const draw = (constraints: ScheduleConstraints, seed: number, n = 5): Schedule[] =>
  fc.sample(scheduleArbitrary(constraints), { seed, numRuns: n });

const hits = (schedules: readonly Schedule[]) =>
  schedules
    .flatMap((s) => s.clients.flat())
    .flatMap((step) =>
      step.type === 'op' ? [step.input as { op: string; limit: number; windowSeconds: number }] : [],
    );

describe('pattern settings in the generator', () => {
  it.each(SEEDS)('seed %i: the ratelimit defaults given explicitly draw exactly what no settings draw', (seed) => {
    for (const faults of [FAULT_NAMES, ['lease-expiry', 'client-freeze'], []] as const) {
      const none = draw({ pattern: PATTERNS.ratelimit, faults }, seed);
      const explicit = draw({ pattern: PATTERNS.ratelimit, faults, settings: { limit: 3, window: 1 } }, seed);
      const partial = draw({ pattern: PATTERNS.ratelimit, faults, settings: { window: 1 } }, seed);
      expect(JSON.stringify(explicit)).toBe(JSON.stringify(none));
      expect(JSON.stringify(partial)).toBe(JSON.stringify(none));
      // And the defaults are the constants every pinned ratelimit draw was made with.
      for (const input of hits(none)) expect([input.limit, input.windowSeconds]).toEqual([3, 1]);
    }
  });

  it('draws every hit with the limit and window set, and waits a whole window out', () => {
    const schedules = draw(
      { pattern: PATTERNS.ratelimit, faults: ['lease-expiry'], settings: { limit: 5, window: 3 } },
      11,
      40,
    );
    const all = hits(schedules);
    expect(all.length).toBeGreaterThan(0);
    for (const input of all) expect(input).toEqual({ op: 'hit', limit: 5, windowSeconds: 3 });
    // The lease-expiry wait of a session is the window plus 100 ms (ratelimit sessions), drawn at least once in 40.
    const pauses = schedules
      .flatMap((s) => s.clients.flat())
      .flatMap((step) => (step.type === 'pause' ? [step.ms] : []));
    expect(pauses).toContain(3_100);
    expect(pauses).not.toContain(1_100);
  });

  it('fills every declared setting, and a pattern without settings has none', () => {
    expect(scheduleOptions({ pattern: PATTERNS.ratelimit }).settings).toEqual({ limit: 3, window: 1 });
    expect(scheduleOptions({ pattern: PATTERNS.ratelimit, settings: { window: 4 } }).settings).toEqual({
      limit: 3,
      window: 4,
    });
    expect(scheduleOptions({ pattern: PATTERNS.lock }).settings).toEqual({ lease: 250, lease2: 500 });
    for (const [name, s] of Object.entries(PATTERNS.ratelimit.settings ?? {}))
      expect(s.min <= s.default && s.default <= s.max, name).toBe(true);
  });

  it('refuses a setting the pattern lacks or a value out of its limits, naming it', () => {
    expect(() => scheduleOptions({ pattern: PATTERNS.ratelimit, settings: { windw: 3 } })).toThrow(
      "scheduleArbitrary: settings: ratelimit has no setting 'windw' (its settings: limit, window), got 3",
    );
    expect(() => scheduleOptions({ pattern: PATTERNS.ratelimit, settings: { window: 0 } })).toThrow(
      'scheduleArbitrary: settings: window must be an integer in [1, 10], got 0',
    );
    expect(() => scheduleOptions({ pattern: PATTERNS.lock, settings: { window: 3 } })).toThrow(
      "lock has no setting 'window' (its settings: lease, lease2)",
    );
  });
});
