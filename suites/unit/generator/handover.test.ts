import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFault, isAimedDelay, scheduleArbitrary, type ClientStep, type ScheduleConstraints } from '../../../src/generator/index.ts';
import type { LockInput } from '../../../src/patterns/lock/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const sample = (c: ScheduleConstraints, n = 400) => fc.sample(scheduleArbitrary(c), { numRuns: n, seed: 15 });
const ops = (steps: readonly ClientStep[]) => steps.flatMap((s) => (s.type === 'op' ? [s as { key: number; input: LockInput }] : []));
/** The clients whose steps begin with a handover's tokens (attempt 3: past the 3 sessions a client may have). */
const staged = (clients: readonly (readonly ClientStep[])[]) => clients.flatMap((steps, c) => (ops(steps)[0]?.input.token === `c${c}a3` ? [c] : []));

describe('handovers', () => {
  it('three lock runs in four begin with one: a holder releasing just before its TTL, a contender asking from just after until past it', () => {
    const schedules = sample({ pattern: PATTERNS.lock });
    const withOne = schedules.filter((s) => staged(s.clients).length > 0);
    expect(withOne.length / schedules.length).toBeGreaterThan(0.65);
    expect(withOne.length / schedules.length).toBeLessThan(0.85);
    for (const s of withOne) {
      const [a, b] = staged(s.clients);
      expect(staged(s.clients)).toHaveLength(2);
      // The holder begins by acquiring; the contender by waiting.
      const holder = s.clients[a][0].type === 'op' ? a : b;
      const contender = holder === a ? b : a;
      const [take, give] = ops(s.clients[holder]);
      expect([take.input.op, give.input.op]).toEqual(['acquire', 'release']);
      expect(give.key).toBe(take.key);
      // Its own key, the last: no session of the run asks for it.
      expect(take.key).toBe(s.keys - 1);
      expect(s.clients.flatMap(ops).filter((o) => o.key === take.key).every((o) => [`c${holder}a3`, `c${contender}a3`].includes(o.input.token))).toBe(true);
      const ttl = (take.input as { ttlMs: number }).ttlMs;
      // The holder's work ends 30-120 ms before its TTL; the contender's first ask 15 ms after that.
      const work = (s.clients[holder][1] as { ms: number }).ms;
      expect(ttl - work).toBeGreaterThanOrEqual(30);
      expect(ttl - work).toBeLessThanOrEqual(120);
      expect(s.clients[contender][0]).toEqual({ type: 'pause', ms: work + 15 });
      const asks = ops(s.clients[contender]).filter((o) => o.input.token === `c${contender}a3`);
      expect(asks.every((o) => o.key === take.key)).toBe(true);
      expect(asks.at(-1)!.input.op).toBe('release');
      // Asking every 10-25 ms for at least 250 ms past the holder's TTL.
      const asking = s.clients[contender].slice(1, s.clients[contender].findIndex((st) => st.type === 'op' && (st.input as LockInput).op === 'release'));
      const span = asking.reduce((ms, st) => ms + (st.type === 'pause' ? st.ms : 0), 0);
      expect(work + 15 + span).toBeGreaterThanOrEqual(ttl + 250 - 25);
      // The hold aimed at the release: its operation number 1, outlasting what is left of the lease.
      const aimed = s.faults.filter(isAimedDelay);
      expect(aimed.length).toBeLessThanOrEqual(1);
      if (aimed.length) {
        expect({ client: aimed[0].client, op: aimed[0].op }).toEqual({ client: holder, op: 1 });
        expect(aimed[0].holdMs).toBeGreaterThanOrEqual(ttl);
        expect(aimed[0].pastExpiryMs).toBeLessThanOrEqual(60);
        expect(s.faults.at(-1)).toBe(aimed[0]);
      }
    }
    // With every fault enabled, most handovers get their hold.
    expect(withOne.filter((s) => s.faults.some(isAimedDelay)).length).toBeGreaterThan(withOne.length * 0.9);
    expect(schedules.filter((s) => staged(s.clients).length === 0).every((s) => !s.faults.some(isAimedDelay))).toBe(true);
  });

  it('need two clients, and the operations they use; their hold needs command-delay and a fault budget', () => {
    expect(sample({ pattern: PATTERNS.lock, clients: 1 }, 100).every((s) => staged(s.clients).length === 0)).toBe(true);
    expect(sample({ pattern: PATTERNS.lock, operations: ['acquire', 'extend'] }, 100).every((s) => staged(s.clients).length === 0)).toBe(true);
    const noDelay = sample({ pattern: PATTERNS.lock, faults: ['lease-expiry', 'reply-loss'] }, 100);
    expect(noDelay.some((s) => staged(s.clients).length > 0)).toBe(true);
    expect(noDelay.every((s) => !s.faults.some(isAimedDelay))).toBe(true);
    const noBudget = sample({ pattern: PATTERNS.lock, maxFaults: 0 }, 100);
    expect(noBudget.some((s) => staged(s.clients).length > 0) && noBudget.every((s) => s.faults.length === 0)).toBe(true);
  });

  it('are staged only by a pattern that declares one', () => {
    for (const pattern of ['idempotency', 'ratelimit', 'semaphore'] as const) {
      expect(sample({ pattern: PATTERNS[pattern] }, 100).every((s) => !s.faults.some(isAimedDelay)), pattern).toBe(true);
    }
  });

  it('read in a counterexample as what they do', () => {
    const aimed = sample({ pattern: PATTERNS.lock }).flatMap((s) => s.faults.filter(isAimedDelay))[0];
    expect(describeFault(aimed)).toMatch(/^at c\d+'s operation #1: hold the (reply to|forwarding of) its first command on its key until its key's TTL has run out and another client touched it, \+\d+ms \(\d+ms if it has no TTL\)$/);
  });
});
