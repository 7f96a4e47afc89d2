/**
 * Reference model of the counting semaphore with leases (lua/semaphore/*.lua): at most `limit`
 * holders at once, each with its own deadline. Outputs are exactly the scripts' replies:
 * acquire 1 held | 0 full; release and refresh 1 done | 0 not a live holder.
 *
 * Every holder is its own lease: its tag is the id of the operation that last set its deadline
 * (its acquire, a re-acquire or a refresh), and `expire(state, tag)` drops that holder alone. A
 * dropped holder never comes back (no-stale-refresh): only a new acquire makes it a holder again,
 * with a new tag. The limit is an argument of every acquire; generators keep one limit per key
 * (a key's limit changing would let the scripts and the model disagree only on what "full" means).
 *
 * An acquire by a live holder renews it whatever the count (the scripts' semantics, the default),
 * unless the input says `reacquire: 'counts'` (the semantic variant an implementation declared,
 * ./index.ts): then the holder is counted like anyone, and on a full set (itself included) the
 * acquire answers 0 and changes nothing: its place is kept, not renewed.
 */
import { type Model, integerReplyMatches, quote, requireInteger } from '../../pattern.ts';

export type SemaphoreInput =
  | {
      readonly op: 'acquire';
      readonly token: string;
      readonly limit: number;
      readonly ttlMs: number;
      readonly reacquire?: Reacquire;
    }
  | { readonly op: 'release'; readonly token: string }
  | { readonly op: 'refresh'; readonly token: string; readonly ttlMs: number };

export type SemaphoreOutput = 1 | 0;

/** What an acquire by a live holder does: renew it whatever the count (default), or count it first. */
export const REACQUIRE = ['renews', 'counts'] as const;
export type Reacquire = (typeof REACQUIRE)[number];

export interface Holder {
  readonly token: string;
  readonly tag: number;
}

/**
 * The live holders, sorted by token (so equal sets hash alike whatever the order they came in).
 * `kind` names the state in coverage tables: free (no live holder; the key is absent) or held.
 */
export interface SemaphoreState {
  readonly kind: 'free' | 'held';
  readonly holders: readonly Holder[];
}

const EMPTY: SemaphoreState = { kind: 'free', holders: [] };
const byToken = (a: Holder, b: Holder) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0);

const holderOf = (state: SemaphoreState, token: string) => state.holders.find((h) => h.token === token);
const withHolder = (state: SemaphoreState, holder: Holder): SemaphoreState => ({
  kind: 'held',
  holders: [...state.holders.filter((h) => h.token !== holder.token), holder].sort(byToken),
});
const without = (state: SemaphoreState, keep: (h: Holder) => boolean): SemaphoreState => {
  const holders = state.holders.filter(keep);
  return holders.length === state.holders.length ? state : holders.length === 0 ? EMPTY : { kind: 'held', holders };
};

export const semaphore: Model<SemaphoreState, SemaphoreInput, SemaphoreOutput> = {
  name: 'semaphore',
  init: () => EMPTY,
  step(state, input, id) {
    switch (input.op) {
      case 'acquire': {
        // The scripts refuse a non-positive limit or TTL with an error, which no model output describes.
        const limit = requireInteger(input.limit, 'acquire.limit', 1);
        requireInteger(input.ttlMs, 'acquire.ttlMs', 1);
        const room = state.holders.length < limit;
        const renews = holderOf(state, input.token) !== undefined && (input.reacquire ?? 'renews') === 'renews';
        if (room || renews) return { state: withHolder(state, { token: input.token, tag: id }), output: 1 };
        return { state, output: 0 };
      }
      case 'release':
        if (!holderOf(state, input.token)) return { state, output: 0 };
        return { state: without(state, (h) => h.token !== input.token), output: 1 };
      case 'refresh':
        requireInteger(input.ttlMs, 'refresh.ttlMs', 1);
        if (!holderOf(state, input.token)) return { state, output: 0 };
        return { state: withHolder(state, { token: input.token, tag: id }), output: 1 };
    }
  },
  expire: (state, tag) => without(state, (h) => h.tag !== tag),
  leaseTags: (state) => state.holders.map((h) => h.tag),
  // The one lease a single-lease reader sees (coverage replay, messages): the earliest stamped,
  // the likeliest to run out first.
  leaseTag: (state) => (state.holders.length === 0 ? null : Math.min(...state.holders.map((h) => h.tag))),
  expiryMs: (input) => (input.op === 'release' ? undefined : input.ttlMs),
  outputMatches: (expected, observed) => integerReplyMatches(expected, observed),
  // The holder lookahead (Model.requires): a release or refresh answered 1 shows its token a live
  // holder; only an acquire (answered 1, or never answered) makes a token one.
  requires: (input, output) => (input.op !== 'acquire' && integerReplyMatches(1, output) ? input.token : undefined),
  grants: (input, output) =>
    input.op === 'acquire' && (output === undefined || integerReplyMatches(1, output)) ? input.token : undefined,
  holdsIdentity: (state, token) => holderOf(state, token) !== undefined,
  hashState: (state) => (state.holders.length === 0 ? 'e' : JSON.stringify(state.holders.map((h) => [h.token, h.tag]))),
  describeInput(input) {
    switch (input.op) {
      case 'acquire':
        return `acquire(token=${quote(input.token)}, limit=${input.limit}, ttl=${input.ttlMs}ms${input.reacquire === undefined ? '' : `, reacquire ${input.reacquire}`})`;
      case 'release':
        return `release(token=${quote(input.token)})`;
      case 'refresh':
        return `refresh(token=${quote(input.token)}, ttl=${input.ttlMs}ms)`;
    }
  },
  describeOutput: (output) => (output === 1 ? '1' : '0'),
  describeState: (state) =>
    state.holders.length === 0
      ? 'no holders'
      : `holders(${state.holders.map((h) => `${quote(h.token)} ttl of op ${h.tag}`).join(', ')})`,
};
