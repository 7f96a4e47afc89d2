import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeFault,
  isAimedDelay,
  scheduleArbitrary,
  type ClientStep,
  type Schedule,
  type ScheduleConstraints,
} from '../../../src/generator/index.ts';
import { racesFor } from '../../../src/generator/races.ts';
import { PATTERNS, PATTERN_NAMES, type AnyPattern } from '../../../src/patterns/index.ts';

const sample = (c: ScheduleConstraints, n = 400) => fc.sample(scheduleArbitrary(c), { numRuns: n, seed: 15 });
type Op = { key: number; input: { op: string; token?: string; owner?: string; ttlMs?: number; leaseMs?: number } };
const ops = (steps: readonly ClientStep[]) => steps.flatMap((s) => (s.type === 'op' ? [s as Op] : []));
const who = (o: Op) => o.input.token ?? o.input.owner;
/** The race's two clients, as the schedule names them. */
const racers = (s: Schedule) => (s.race ? [s.race.holder, s.race.contender] : []);
const pauseBefore = (steps: readonly ClientStep[], opIndex: number) => {
  let seen = -1;
  let ms = 0;
  for (const step of steps) {
    if (step.type === 'op' && ++seen === opIndex) return ms;
    if (step.type !== 'op') ms += step.ms;
  }
  return ms;
};

describe('races at critical instants', () => {
  it.each(PATTERN_NAMES)(
    '%s: three runs in four stage one, on a key of its own, with a hold aimed at the racing operation',
    (name) => {
      const pattern = PATTERNS[name] as AnyPattern;
      const schedules = sample({ pattern });
      const raced = schedules.filter((s) => racers(s).length === 2);
      expect(raced.length / schedules.length).toBeGreaterThan(0.65);
      expect(raced.length / schedules.length).toBeLessThan(0.85);
      const victims = new Set<string>();
      for (const s of raced) {
        const aimed = s.faults.filter(isAimedDelay);
        expect(aimed.length).toBeLessThanOrEqual(1);
        // Its own key, the last: nobody but the two racers touches it, and a racer's tokens are attempt 3's.
        expect(s.race!.key).toBe(s.keys - 1);
        for (const [c, steps] of s.clients.entries()) {
          const onRaceKey = ops(steps).filter((o) => o.key === s.keys - 1);
          if (!racers(s).includes(c)) expect(onRaceKey).toEqual([]);
          else if (onRaceKey.some((o) => who(o) !== undefined))
            expect(onRaceKey.every((o) => who(o)!.startsWith(`c${c}a`) && Number(who(o)!.split('a')[1]) >= 3)).toBe(
              true,
            );
        }
        if (aimed.length === 0) continue;
        const [hold] = aimed;
        expect(s.faults.at(-1)).toBe(hold);
        expect({ client: hold.client, op: hold.op }).toEqual({ client: s.race!.holder, op: s.race!.op });
        const victim = ops(s.clients[hold.client])[hold.op];
        expect(victim.key).toBe(s.keys - 1);
        if (who(victim) !== undefined) expect(who(victim)).toBe(`c${hold.client}a3`);
        victims.add(victim.input.op);
        const race = pattern.races!.find(
          (r) =>
            r.victim === victim.input.op &&
            (hold.pastExpiryMs !== undefined ? r.instant === 'lease-end' : r.instant === 'last-place'),
        );
        expect(race, `${victim.input.op} held ${describeFault(hold)}`).toBeDefined();
      }
      // Every critical instant the pattern declares is staged, its racing operation held.
      expect([...victims].sort()).toEqual([...new Set(pattern.races!.map((r) => r.victim))].sort());
      expect(raced.filter((s) => s.faults.some(isAimedDelay)).length).toBeGreaterThan(raced.length * 0.9);
      expect(schedules.filter((s) => racers(s).length === 0).every((s) => !s.faults.some(isAimedDelay))).toBe(true);
    },
  );

  it('at a lease end: the victim sent 30-120 ms before the lease, the contender asking from 15 ms after until 250 ms past it, the hold outlasting the lease', () => {
    for (const name of ['lock', 'idempotency', 'semaphore'] as const) {
      for (const s of sample({ pattern: PATTERNS[name] })) {
        const [hold] = s.faults.filter(isAimedDelay);
        if (!hold || hold.pastExpiryMs === undefined) continue;
        const holder = s.clients[hold.client];
        const [take, victim] = ops(holder);
        expect(hold.op).toBe(1);
        const lease = take.input.ttlMs ?? take.input.leaseMs!;
        const sendAt = pauseBefore(holder, 1);
        expect(lease - sendAt).toBeGreaterThanOrEqual(30);
        expect(lease - sendAt).toBeLessThanOrEqual(120);
        expect(victim.key).toBe(take.key);
        const contender = racers(s).find((c) => c !== hold.client)!;
        expect(s.clients[contender][0]).toEqual({ type: 'pause', ms: sendAt + 15 });
        const asking = ops(s.clients[contender]).filter((o) => o.key === s.keys - 1);
        const lastAsk = asking.length - 2;
        expect(pauseBefore(s.clients[contender], lastAsk)).toBeGreaterThanOrEqual(lease + 250 - 25 - 25);
        expect(hold.holdMs).toBeGreaterThanOrEqual(lease);
        expect(hold.pastExpiryMs).toBeLessThanOrEqual(60);
      }
    }
  });

  it('for a last place: the contender fills the places before it, both take within 15 ms, the hold lasting until the contender is answered', () => {
    for (const name of ['idempotency', 'semaphore', 'ratelimit'] as const) {
      let seen = 0;
      for (const s of sample({ pattern: PATTERNS[name] })) {
        const [hold] = s.faults.filter(isAimedDelay);
        if (!hold || hold.pastTouchMs === undefined) continue;
        seen++;
        expect(hold.op).toBe(0);
        expect(hold.on).toBe('reply');
        expect(hold.pastTouchMs).toBeLessThanOrEqual(60);
        expect(hold.holdMs).toBeLessThanOrEqual(500);
        const holder = s.clients[hold.client];
        const contender = s.clients[racers(s).find((c) => c !== hold.client)!];
        const takesAt = pauseBefore(holder, 0);
        expect(takesAt).toBeGreaterThanOrEqual(40);
        const fills =
          ops(contender).filter((o) => o.key === s.keys - 1).length -
          ops(holder).filter((o) => o.key === s.keys - 1).length;
        expect(pauseBefore(contender, fills)).toBe(Math.max(0, takesAt + 15 - 2 * fills));
      }
      expect(seen, name).toBeGreaterThan(20);
    }
  });

  it('refuse a racing operation only where the race allows it: an idempotency register one race in four', () => {
    const refusals = (name: (typeof PATTERN_NAMES)[number]) => {
      const holds = sample({ pattern: PATTERNS[name] }, 1_000).flatMap((s) =>
        s.faults.filter(isAimedDelay).map((h) => ({ h, s })),
      );
      return {
        refused: holds.filter(({ h }) => h.refuse),
        lastPlace: holds.filter(({ h }) => h.pastExpiryMs === undefined),
      };
    };
    const idempotency = refusals('idempotency');
    expect(
      idempotency.refused.every(({ h, s }) => ops(s.clients[h.client])[h.op].input.op === 'register' && h.op === 0),
    ).toBe(true);
    const share = idempotency.refused.length / idempotency.lastPlace.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.35);
    for (const name of ['lock', 'ratelimit', 'semaphore'] as const) expect(refusals(name).refused, name).toEqual([]);
  });

  it('stage only what the implementation supports, with two clients; the hold needs command-delay and a fault budget', () => {
    expect(sample({ pattern: PATTERNS.lock, clients: 1 }, 100).every((s) => racers(s).length === 0)).toBe(true);
    expect(racesFor(PATTERNS.lock.races ?? [], new Set(['acquire', 'extend']))).toEqual([]);
    expect(racesFor(PATTERNS.lock.races ?? [], new Set(['acquire', 'release'])).map((r) => r.victim)).toEqual([
      'release',
    ]);
    expect(racesFor(PATTERNS.semaphore.races ?? [], new Set(['acquire', 'release'])).map((r) => r.victim)).toEqual([
      'acquire',
    ]);
    expect(
      sample({ pattern: PATTERNS.lock, operations: ['acquire', 'extend'] }, 100).every((s) => racers(s).length === 0),
    ).toBe(true);
    const noDelay = sample({ pattern: PATTERNS.lock, faults: ['lease-expiry', 'reply-loss'] }, 100);
    expect(noDelay.some((s) => racers(s).length > 0)).toBe(true);
    expect(noDelay.every((s) => !s.faults.some(isAimedDelay))).toBe(true);
    const noBudget = sample({ pattern: PATTERNS.lock, maxFaults: 0 }, 100);
    expect(noBudget.some((s) => racers(s).length > 0) && noBudget.every((s) => s.faults.length === 0)).toBe(true);
  });

  it('read in a counterexample as what they do', () => {
    const holds = sample({ pattern: PATTERNS.idempotency }).flatMap((s) => s.faults.filter(isAimedDelay));
    const atLeaseEnd = holds.find((h) => h.pastExpiryMs !== undefined)!;
    const atLastPlace = holds.find((h) => h.pastTouchMs !== undefined)!;
    const refused = holds.find((h) => h.refuse)!;
    expect(describeFault(atLeaseEnd)).toMatch(
      /^at c\d+'s operation #1: hold the (reply to|forwarding of) its first command on its key until its key's TTL has run out and another client touched it, \+\d+ms \(\d+ms if it has no TTL\)$/,
    );
    expect(describeFault(refused)).toMatch(
      /^at c\d+'s operation #0: refuse its first command on its key \(it never runs; BUSY is answered\)$/,
    );
    expect(describeFault(atLastPlace)).toMatch(
      /^at c\d+'s operation #0: hold the reply to its first command on its key until another client's command on its key was answered, \+\d+ms \(at most \d+ms\)$/,
    );
  });
});
