// Every pattern's time scale is a setting (src/patterns/time-scale.ts): whole-second leases and TTLs
// reach every operation that carries one, stalls past a lease follow it, and the defaults draw what
// the constants drew (suites/unit/generator/pinned-draws.test.ts pins that for whole schedules).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scheduleArbitrary, type Schedule, type ScheduleConstraints } from '../../../src/generator/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const draw = (constraints: ScheduleConstraints, seed: number, n = 30): Schedule[] =>
  fc.sample(scheduleArbitrary(constraints), { seed, numRuns: n });
const steps = (schedules: readonly Schedule[]) => schedules.flatMap((s) => s.clients.flat());
const inputs = (schedules: readonly Schedule[]) =>
  steps(schedules).flatMap((step) => (step.type === 'op' ? [step.input as Record<string, unknown>] : []));

describe('time-scale settings', () => {
  it.each(['lock', 'semaphore', 'idempotency'] as const)(
    '%s: the default leases given explicitly draw exactly what no settings draw',
    (name) => {
      for (const seed of [1, 1303]) {
        const none = draw({ pattern: PATTERNS[name], faults: ['lease-expiry', 'client-freeze'] }, seed, 5);
        const explicit = draw(
          { pattern: PATTERNS[name], faults: ['lease-expiry', 'client-freeze'], settings: { lease: 250, lease2: 500 } },
          seed,
          5,
        );
        expect(JSON.stringify(explicit)).toBe(JSON.stringify(none));
      }
    },
  );

  it('lock: a handover staged with two-second leases, with every fault, draws (an aimed hold is the lease then)', () => {
    const schedules = draw({ pattern: PATTERNS.lock, settings: { lease: 2000, lease2: 4000 } }, 1402, 40);
    expect(schedules.length).toBe(40);
  });

  it.each(['lock', 'semaphore', 'idempotency'] as const)(
    '%s: whole-second leases reach every operation and every stall',
    (name) => {
      const settings: Record<string, number> =
        name === 'idempotency' ? { lease: 1000, lease2: 2000, ttl: 2000, ttl2: 5000 } : { lease: 1000, lease2: 2000 };
      const schedules = draw({ pattern: PATTERNS[name], faults: ['lease-expiry', 'client-freeze'], settings }, 7);
      const all = inputs(schedules);
      const leases = all.flatMap((i) =>
        [i.ttlMs, i.leaseMs].filter((v) => v !== undefined && !(name === 'idempotency' && i.op === 'complete')),
      );
      expect(leases.length).toBeGreaterThan(0);
      expect(new Set(leases)).toEqual(new Set([1000, 2000]));
      if (name === 'idempotency')
        expect(new Set(all.filter((i) => i.op === 'complete').map((i) => i.ttlMs))).toEqual(new Set([2000, 5000]));
      // A stall past a lease lasts at least the shorter lease plus 50 ms.
      const stalls = steps(schedules).flatMap((s) => (s.type === 'freeze' ? [s.ms] : []));
      expect(stalls.length).toBeGreaterThan(0);
      for (const ms of stalls) expect(ms).toBeGreaterThanOrEqual(1050);
    },
  );
});
