/**
 * The lock's and the limiter's invariants plug into the same checker through the classifier table
 * (the compare-and-delete lock and the fixed-window limiter).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { LockInput, LockOutput, RateLimitInput, RateLimitOutput } from '../../../src/patterns/models.ts';
import { history, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const acquire = (client: number, token: string, at: [number, number], output: LockOutput, ttlMs = 10_000) =>
  op<LockInput, LockOutput>(client, { op: 'acquire', token, ttlMs }, at[0], at[1], { output }, 'lock:k');
const releaseLock = (client: number, token: string, at: [number, number], output: LockOutput) =>
  op<LockInput, LockOutput>(client, { op: 'release', token }, at[0], at[1], { output }, 'lock:k');
const extend = (client: number, token: string, at: [number, number], output: LockOutput) =>
  op<LockInput, LockOutput>(client, { op: 'extend', token, ttlMs: 10_000 }, at[0], at[1], { output }, 'lock:k');

describe('lock', () => {
  it('accepts a new holder once the TTL may have run out', () => {
    const ops = [
      acquire(1, 't1', [0, 10], 1, 100),
      acquire(2, 't2', [80, 90], 1),
      releaseLock(1, 't1', [100, 110], -1),
    ];
    expect(check(history(ops), PATTERNS.lock).verdict).toBe('ok');
  });

  it('names one-holder for an acquire that succeeded while the lock was held', () => {
    const holder = acquire(1, 't1', [0, 10], 1);
    const second = acquire(2, 't2', [20, 30], 1);
    const result = check(history([holder, second]), PATTERNS.lock);
    expect(result.violations.map((v) => v.invariant)).toEqual(['one-holder']);
    expect(result.violations[0].witness.map((o) => o.id)).toEqual([holder.id, second.id]);
    expect(result.violations[0].message).toContain("client 2's acquire");
  });

  it('names one-holder when a holder acquires its own lock again, and says it was freed behind its back', () => {
    const ops = [acquire(1, 't1', [0, 10], 1), acquire(1, 't1', [20, 30], 1)];
    const [violation] = check(history(ops), PATTERNS.lock).violations;
    expect(violation.invariant).toBe('one-holder');
    expect(violation.message).toContain('its holder acquired it a second time');
    expect(violation.message).not.toContain('two clients');
  });

  it('names no-stale-release for a release by a token that does not hold the lock', () => {
    const ops = [acquire(1, 't1', [0, 10], 1), releaseLock(2, 't2', [20, 30], 1)];
    expect(check(history(ops), PATTERNS.lock).violations.map((v) => v.invariant)).toEqual(['no-stale-release']);
  });

  it('names no-stale-release for an extend by a holder whose TTL ran out and was replaced', () => {
    const ops = [acquire(1, 't1', [0, 10], 1, 100), acquire(2, 't2', [200, 210], 1), extend(1, 't1', [300, 310], 1)];
    expect(check(history(ops), PATTERNS.lock).violations.map((v) => v.invariant)).toEqual(['no-stale-release']);
  });

  it('falls back to model-conformance for a reply the model never prescribes', () => {
    const ops = [acquire(1, 't1', [0, 10], 1), releaseLock(1, 't1', [20, 30], 0)];
    expect(check(history(ops), PATTERNS.lock).violations.map((v) => v.invariant)).toEqual(['model-conformance']);
  });
});

const hit = (client: number, at: [number, number], output: RateLimitOutput) =>
  op<RateLimitInput, RateLimitOutput>(
    client,
    { op: 'hit', limit: 2, windowSeconds: 1 },
    at[0],
    at[1],
    { output },
    'rl:k',
  );

describe('ratelimit', () => {
  it('accepts a hit allowed in the next window', () => {
    // The window opened during [0, 10] ends within [975, 1035].
    const ops = [hit(1, [0, 10], 1), hit(2, [20, 30], 1), hit(3, [40, 50], 0), hit(1, [1_100, 1_110], 1)];
    expect(check(history(ops), PATTERNS.ratelimit).verdict).toBe('ok');
  });

  it('names limit-respected for a hit allowed beyond the limit', () => {
    const over = hit(3, [40, 50], 1);
    const result = check(history([hit(1, [0, 10], 1), hit(2, [20, 30], 1), over]), PATTERNS.ratelimit);
    expect(result.violations.map((v) => v.invariant)).toEqual(['limit-respected']);
    expect(result.violations[0].witness.map((o) => o.id)).toContain(over.id);
    expect(result.violations[0].message).toContain('limit of 2');
  });

  it('names model-conformance for a hit blocked under the limit', () => {
    const result = check(history([hit(1, [0, 10], 1), hit(2, [20, 30], 0)]), PATTERNS.ratelimit);
    expect(result.violations.map((v) => v.invariant)).toEqual(['model-conformance']);
  });
});
