import { describe, it, expect } from 'vitest';
import { ratelimit, type RateLimitOutput, type RateLimitState } from '../../../../src/patterns/models.ts';

const hit = (limit = 5, windowSeconds = 60) => ({ op: 'hit', limit, windowSeconds }) as const;

function hits(n: number, limit: number, start: RateLimitState = ratelimit.init(), firstId = 1) {
  let state = start;
  const outputs: RateLimitOutput[] = [];
  for (let i = 0; i < n; i += 1) {
    const step = ratelimit.step(state, hit(limit), firstId + i);
    state = step.state;
    outputs.push(step.output);
  }
  return { state, outputs };
}

describe('ratelimit model: fixed window', () => {
  it('six hits against a limit of 5 answer 1 1 1 1 1 0', () => {
    expect(hits(6, 5).outputs).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it('only the hit that creates the counter sets the expiry', () => {
    const { state } = hits(4, 5);
    expect(ratelimit.leaseTag(state)).toBe(1);
    expect(ratelimit.expire(state, 3)).toBe(state);
  });

  it('blocked hits change nothing, so a GET-first and an INCR-first counter have one state', () => {
    const atLimit = hits(3, 3).state;
    const afterBlocked = hits(4, 3, atLimit, 4).state;
    expect(afterBlocked).toEqual(atLimit);
    expect(ratelimit.hashState(afterBlocked)).toBe(ratelimit.hashState(atLimit));
  });

  it('the window expiring resets the count: the next hit is allowed and starts a new window', () => {
    const full = hits(2, 2).state;
    const expired = ratelimit.expire(full, 1);
    expect(expired.kind).toBe('absent');
    const next = ratelimit.step(expired, hit(2), 7);
    expect(next.output).toBe(1);
    expect(ratelimit.leaseTag(next.state)).toBe(7);
  });

  it('a non-positive window deletes the new counter at once, and the hit is allowed', () => {
    const step = ratelimit.step(ratelimit.init(), hit(5, 0), 1);
    expect(step).toEqual({ state: { kind: 'absent' }, output: 1 });
  });

  it('rejects a limit below 1, where the two scripts disagree', () => {
    expect(() => ratelimit.step(ratelimit.init(), hit(0), 1)).toThrow(/hit.limit/);
  });

  it('expiryMs is the window in milliseconds', () => {
    expect(ratelimit.expiryMs(hit(5, 2))).toBe(2000);
  });

  it('outputMatches accepts 1 and "1", rejects 0 for 1 and booleans', () => {
    expect(ratelimit.outputMatches(1, '1')).toBe(true);
    expect(ratelimit.outputMatches(1, 0)).toBe(false);
    expect(ratelimit.outputMatches(0, false)).toBe(false);
  });

  it('describes inputs, outputs and states', () => {
    expect(ratelimit.describeInput(hit(5, 60))).toBe('hit(limit=5, window=60s)');
    expect(ratelimit.describeOutput(0)).toBe('0 (blocked)');
    expect(ratelimit.describeState(hits(2, 5).state)).toBe('window(allowed=2, ttl of op 1)');
  });
});
