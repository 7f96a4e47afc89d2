/**
 * Reference model of the fixed-window rate limiter (lua/ratelimit/*.lua).
 * The state counts the hits *allowed* in the current window. The GET-first script stores exactly
 * that; the INCR-first script stores every hit, so its counter runs past the limit once blocked,
 * but min(counter, limit) is the same number and so are the answers, as long as a key's limit
 * does not change within a window. Generators must keep one limit per key (and limit >= 1: with
 * limit 0 the GET-first script still allows the first hit while INCR-first blocks it).
 * Only the hit that creates the counter sets the expiry; later hits never move the window.
 */
import { type Model, integerReplyMatches, requireInteger } from '../../pattern.ts';

export interface RateLimitInput {
  readonly op: 'hit';
  readonly limit: number;
  readonly windowSeconds: number;
}

export type RateLimitOutput = 1 | 0;

export type RateLimitState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'window'; readonly allowed: number; readonly tag: number };

const ABSENT: RateLimitState = { kind: 'absent' };

export const ratelimit: Model<RateLimitState, RateLimitInput, RateLimitOutput> = {
  name: 'ratelimit',
  init: () => ABSENT,
  step(state, input, id) {
    const limit = requireInteger(input.limit, 'hit.limit', 1);
    const windowSeconds = requireInteger(input.windowSeconds, 'hit.windowSeconds', Number.MIN_SAFE_INTEGER);
    if (state.kind === 'absent') {
      // EXPIRE with a non-positive time deletes the fresh counter at once; the hit is still allowed.
      return { state: windowSeconds > 0 ? { kind: 'window', allowed: 1, tag: id } : ABSENT, output: 1 };
    }
    if (state.allowed >= limit) return { state, output: 0 };
    return { state: { ...state, allowed: state.allowed + 1 }, output: 1 };
  },
  expire: (state, tag) => (state.kind === 'window' && state.tag === tag ? ABSENT : state),
  leaseTag: (state) => (state.kind === 'window' ? state.tag : null),
  expiryMs: (input) => input.windowSeconds * 1000,
  outputMatches: (expected, observed) => integerReplyMatches(expected, observed),
  hashState: (state) => (state.kind === 'absent' ? 'a' : JSON.stringify(['w', state.allowed, state.tag])),
  describeInput: (input) => `hit(limit=${input.limit}, window=${input.windowSeconds}s)`,
  describeOutput: (output) => (output === 1 ? '1 (allowed)' : '0 (blocked)'),
  describeState: (state) =>
    state.kind === 'absent' ? 'absent' : `window(allowed=${state.allowed}, ttl of op ${state.tag})`,
};
