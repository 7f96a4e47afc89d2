import { describe, it, expect } from 'vitest';
import { stepAt, timed, expireAt } from '../../../src/model/index.ts';
import { idempotency, lock, ratelimit } from '../../../src/patterns/models.ts';

describe('stepAt: sequential mode with a known clock', () => {
  it('records the deadline of the lease an operation stamps', () => {
    const { state, output } = stepAt(
      idempotency,
      timed(idempotency),
      { op: 'register', fingerprint: 'f', owner: 'o1', leaseMs: 300 },
      1,
      1000,
    );
    expect(output).toEqual(['fresh']);
    expect(state.deadline).toBe(1300);
  });

  it('before the deadline the key is still there; from the deadline on it is gone', () => {
    const held = stepAt(lock, timed(lock), { op: 'acquire', token: 't1', ttlMs: 100 }, 1, 0).state;
    expect(stepAt(lock, held, { op: 'acquire', token: 't2', ttlMs: 100 }, 2, 99).output).toBe(0);
    const after = stepAt(lock, held, { op: 'acquire', token: 't2', ttlMs: 100 }, 2, 100);
    expect(after.output).toBe(1);
    expect(after.state.deadline).toBe(200);
  });

  it('a renew moves the deadline; the old deadline passing then expires nothing', () => {
    const reg = stepAt(
      idempotency,
      timed(idempotency),
      { op: 'register', fingerprint: 'f', owner: 'o1', leaseMs: 100 },
      1,
      0,
    ).state;
    const renewed = stepAt(idempotency, reg, { op: 'renew', owner: 'o1', leaseMs: 500 }, 2, 50).state;
    expect(renewed.deadline).toBe(550);
    expect(
      stepAt(idempotency, renewed, { op: 'complete', owner: 'o1', status: '200', body: '', ttlMs: 100 }, 3, 300).output,
    ).toBe(1);
  });

  it('a step that keeps the lease keeps the deadline (only the first hit starts a window)', () => {
    const first = stepAt(ratelimit, timed(ratelimit), { op: 'hit', limit: 5, windowSeconds: 1 }, 1, 10).state;
    const second = stepAt(ratelimit, first, { op: 'hit', limit: 5, windowSeconds: 1 }, 2, 500).state;
    expect(second.deadline).toBe(1010);
    expect(expireAt(ratelimit, second, 1010).state.kind).toBe('absent');
    expect(expireAt(ratelimit, second, 1009)).toBe(second);
  });

  it('a step that deletes the key clears the deadline', () => {
    const held = stepAt(lock, timed(lock), { op: 'acquire', token: 't1', ttlMs: 100 }, 1, 0).state;
    expect(stepAt(lock, held, { op: 'release', token: 't1' }, 2, 10).state).toEqual({
      state: { kind: 'absent' },
      deadline: null,
    });
  });

  it('refuses to start from a leased state without a deadline', () => {
    expect(() => timed(lock, { kind: 'held', token: 't', tag: 1 })).toThrow(/deadline/);
  });
});
