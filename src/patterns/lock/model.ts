/**
 * Reference model of the compare-and-delete lock (lua/lock/*.lua).
 * Outputs are exactly the scripts' replies: acquire 1|0; release and extend
 * null (absent) | -1 (another token) | 1 (done). The scripts answer 0 from release or extend only
 * when DEL/PEXPIRE acts on a key that vanished after the check, which atomic execution rules out,
 * so the model never prescribes 0 (see suites/conformance/lua-lock.test.ts).
 */
import { type Model, integerReplyMatches, isNilReply, quote, requireInteger } from '../../pattern.ts';

export type LockInput =
  | { readonly op: 'acquire'; readonly token: string; readonly ttlMs: number }
  | { readonly op: 'release'; readonly token: string }
  | { readonly op: 'extend'; readonly token: string; readonly ttlMs: number };

export type LockOutput = 1 | 0 | -1 | null;

export type LockState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'held'; readonly token: string; readonly tag: number };

const ABSENT: LockState = { kind: 'absent' };

export const lock: Model<LockState, LockInput, LockOutput> = {
  name: 'lock',
  init: () => ABSENT,
  step(state, input, id) {
    switch (input.op) {
      case 'acquire': {
        // SET ... PX rejects a non-positive time with an error, which no model output describes.
        requireInteger(input.ttlMs, 'acquire.ttlMs', 1);
        if (state.kind === 'held') return { state, output: 0 };
        return { state: { kind: 'held', token: input.token, tag: id }, output: 1 };
      }
      case 'release':
        if (state.kind === 'absent') return { state, output: null };
        if (state.token !== input.token) return { state, output: -1 };
        return { state: ABSENT, output: 1 };
      case 'extend': {
        const ttlMs = requireInteger(input.ttlMs, 'extend.ttlMs', Number.MIN_SAFE_INTEGER);
        if (state.kind === 'absent') return { state, output: null };
        if (state.token !== input.token) return { state, output: -1 };
        // PEXPIRE with a non-positive time deletes the key and still answers 1.
        return { state: ttlMs > 0 ? { ...state, tag: id } : ABSENT, output: 1 };
      }
    }
  },
  expire: (state, tag) => (state.kind === 'held' && state.tag === tag ? ABSENT : state),
  leaseTag: (state) => (state.kind === 'held' ? state.tag : null),
  expiryMs: (input) => (input.op === 'release' ? undefined : input.ttlMs),
  outputMatches: (expected, observed) =>
    expected === null ? isNilReply(observed) : integerReplyMatches(expected, observed),
  hashState: (state) => (state.kind === 'absent' ? 'a' : JSON.stringify(['h', state.token, state.tag])),
  // Only an acquire makes a token the holder; a release or extend answered 1 shows its token held.
  requires: (input, output) => (input.op !== 'acquire' && integerReplyMatches(1, output) ? input.token : undefined),
  grants: (input, output) =>
    input.op === 'acquire' && (output === undefined || integerReplyMatches(1, output)) ? input.token : undefined,
  holdsIdentity: (state, token) => state.kind === 'held' && state.token === token,
  holderOf: (state) => (state.kind === 'held' ? state.token : undefined),
  // An acquire answered 1 found the key absent; a release or extend answered nil did too.
  requiresVacant: (input, output) => (input.op === 'acquire' ? integerReplyMatches(1, output) : isNilReply(output)),
  // Only the holder's own release or extend changes a held key (besides its lease running out).
  mayEnd: (input) => (input.op === 'acquire' ? undefined : input.token),
  // A release or extend answered -1 (another token) or nil (nobody) shows its own token not the holder.
  excludes: (input, output) =>
    input.op !== 'acquire' && (integerReplyMatches(-1, output) || isNilReply(output)) ? input.token : undefined,
  answerLeaves(input, output, id) {
    if (!integerReplyMatches(1, output)) return undefined;
    if (input.op === 'release') return ABSENT;
    return input.op === 'extend' && input.ttlMs <= 0 ? ABSENT : { kind: 'held', token: input.token, tag: id };
  },
  describeInput(input) {
    switch (input.op) {
      case 'acquire':
        return `acquire(token=${quote(input.token)}, ttl=${input.ttlMs}ms)`;
      case 'release':
        return `release(token=${quote(input.token)})`;
      case 'extend':
        return `extend(token=${quote(input.token)}, ttl=${input.ttlMs}ms)`;
    }
  },
  describeOutput: (output) => (output === null ? 'nil' : String(output)),
  describeState: (state) =>
    state.kind === 'absent' ? 'absent' : `held(token=${quote(state.token)}, ttl of op ${state.tag})`,
};
