/**
 * Duplicate effects: an operation counted only when no order explains its key's history without
 * its second execution (src/checker/duplicates.ts), not whenever the linearization found placed one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check, defaultCheckOptions, operationKind } from '../../../src/checker/index.ts';
import { neededSecondExecutions } from '../../../src/checker/duplicates.ts';
import { buildKeyProblem } from '../../../src/checker/problem.ts';
import { searchKey } from '../../../src/checker/search.ts';
import type { FaultRecord, History } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { ratelimit, type RateLimitInput, type RateLimitOutput } from '../../../src/patterns/ratelimit/model.ts';
import { fault, history, keyVerdict, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const cut = (startedAt: number, endedAt: number): FaultRecord => ({
  ...fault('reply-loss', startedAt, endedAt, false),
  cutsConnections: true,
});
const hit = (client: number, limit: number, at: [number, number], output: RateLimitOutput | 'info') =>
  op<RateLimitInput, RateLimitOutput>(
    client,
    { op: 'hit', limit, windowSeconds: 60 },
    at[0],
    at[1],
    output === 'info' ? 'info' : { output },
  );

describe('a ratelimit hit counted twice', () => {
  it('is counted when the counter cannot be explained without its second execution', () => {
    // Limit 2: the cut hit was allowed, the next one blocked, so the counter reached 2 with one hit.
    const first = hit(1, 2, [0, 50], 1);
    const result = check(history([first, hit(2, 2, [60, 70], 0)], [cut(10, 20)]), PATTERNS.ratelimit);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({ hit: [first.id] });
    expect(keyVerdict(result).duplicates).toEqual([first.id]);
  });

  it('is not counted when another order needs no second execution, though the search placed one', () => {
    // Limit 3: both hits allowed; the counter may be 2 or 3, so the second execution is optional.
    const first = hit(1, 3, [0, 50], 1);
    const ops = [first, hit(2, 3, [60, 70], 1)];
    const faults = [cut(10, 20)];
    const found = searchKey(buildKeyProblem(ratelimit, ops, 25, [], faults), 10_000, false);
    expect(found.verdict).toBe('ok');
    // The first linearization found does run it twice: counting that would over-state.
    expect(found.secondExecutions).toEqual([0]);
    const result = check(history(ops, faults), PATTERNS.ratelimit);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({});
    expect(keyVerdict(result).duplicates).toBeUndefined();
  });

  it('is never counted without a fault that cut connections (the history is then illegal)', () => {
    const result = check(history([hit(1, 2, [0, 50], 1), hit(2, 2, [60, 70], 0)]), PATTERNS.ratelimit);
    expect(result.verdict).toBe('illegal');
    expect(result.duplicateEffects).toEqual({});
  });

  it('counts neither of two hits when either one running twice explains the counter', () => {
    // Limit 3, two cut hits allowed, then one blocked: one of them ran twice, but which is unknown.
    const ops = [hit(1, 3, [0, 50], 1), hit(2, 3, [0, 50], 1), hit(3, 3, [60, 70], 0)];
    const result = check(history(ops, [cut(10, 20)]), PATTERNS.ratelimit);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({});
  });

  it('counts an indeterminate hit that ran twice', () => {
    // Limit 3: the info hit must have run twice for the counter to be full at the third answer.
    const lost = hit(1, 3, [0, 50], 'info');
    const ops = [lost, hit(2, 3, [60, 70], 1), hit(3, 3, [80, 90], 0)];
    const result = check(history(ops, [cut(10, 20)]), PATTERNS.ratelimit);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({ hit: [lost.id] });
  });
});

describe('a register resent by the same attempt', () => {
  it('is counted as a duplicate register: its first execution created the record its reply shows', () => {
    const own = op<IdempotencyInput, IdempotencyOutput>(
      1,
      { op: 'register', fingerprint: 'fp', owner: 'A', leaseMs: 60_000 },
      0,
      50,
      { output: ['hit', 'pending', 'fp', '', ''] },
    );
    const result = check(history([own], [cut(10, 20)]), PATTERNS.idempotency);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({ register: [own.id] });
  });
});

describe('the re-check', () => {
  it('counts nothing when it runs out of budget, and says which operation was left undecided', () => {
    // Limit 6: four concurrent hits after the cut one, then a refusal: only the cut hit run twice fills the window.
    const ops = [hit(1, 6, [0, 50], 1), ...[2, 3, 4, 5].map((c) => hit(c, 6, [60, 100], 1)), hit(7, 6, [110, 120], 0)];
    const tight = neededSecondExecutions(
      ratelimit,
      ops,
      [0],
      [cut(10, 20)],
      { ...defaultCheckOptions, budget: 2 },
      Infinity,
    );
    expect(tight).toMatchObject({ needed: [], undecided: [0] });
    const enough = neededSecondExecutions(ratelimit, ops, [0], [cut(10, 20)], defaultCheckOptions, Infinity);
    expect(enough).toMatchObject({ needed: [0], undecided: [] });
  });

  it('groups by the input\'s op, and inputs without one under "op"', () => {
    expect(operationKind({ op: 'hit' })).toBe('hit');
    expect(operationKind({ f: 'write' })).toBe('op');
    expect(operationKind(null)).toBe('op');
  });
});

describe('a recorded history: a renew resent after a reset_peer toxic (fixtures/resent-renew.json)', () => {
  it('counts that renew, and only it: it extended the lease once and answered 0 the second time', () => {
    const recorded = JSON.parse(readFileSync(new URL('./fixtures/resent-renew.json', import.meta.url), 'utf8')) as {
      history: History<IdempotencyInput, IdempotencyOutput>;
    };
    const result = check(recorded.history, PATTERNS.idempotency);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({ renew: [33] });
    expect(result.stats.duplicateStatesExplored).toBeGreaterThan(0);
  });
});
