/**
 * A lease of zero or less ends at once: the lock's extend with a non-positive TTL runs PEXPIRE, which
 * deletes the key and still answers 1. Its expiry entry once had a window closing before its own
 * operation began, so a history the script really produces (extend answered 1, then another
 * client's acquire answered 1) was judged illegal.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';
import { history, ok, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const acquire = (token: string): LockInput => ({ op: 'acquire', token, ttlMs: 1_000 });
const extend = (token: string, ttlMs: number): LockInput => ({ op: 'extend', token, ttlMs });

describe('a non-positive lease', () => {
  for (const ttlMs of [0, -5, -1_000]) {
    it(`extend(ttl=${ttlMs}ms) answered 1 frees the lock for the next acquire`, () => {
      const ops = [
        op<LockInput, LockOutput>(1, acquire('a'), 0, 1, ok(1)),
        op<LockInput, LockOutput>(1, extend('a', ttlMs), 100, 101, ok(1)),
        op<LockInput, LockOutput>(2, acquire('b'), 200, 201, ok(1)),
      ];
      expect(check(history(ops), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('ok');
    });
  }

  it("still judges the holder: after extend(ttl=-5ms) answered 1, the old holder's extend answered 1 is illegal", () => {
    const ops = [
      op<LockInput, LockOutput>(1, acquire('a'), 0, 1, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', -5), 100, 101, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', 1_000), 200, 201, ok(1)),
    ];
    expect(check(history(ops), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('illegal');
  });
});
