/**
 * Reference model of the idempotency-key store (lua/idempotency/*.lua): a lease for the attempt, then its stored response.
 * One key is a hash that is absent, pending (owner holds a lease) or completed (response stored
 * for a TTL). Outputs are exactly the scripts' replies.
 */
import {
  type Model,
  type Step,
  integerReplyMatches,
  isNilReply,
  quote,
  replyText,
  requireInteger,
} from '../../pattern.ts';

export type IdempotencyInput =
  | { readonly op: 'register'; readonly fingerprint: string; readonly owner: string; readonly leaseMs: number }
  | {
      readonly op: 'complete';
      readonly owner: string;
      readonly status: string;
      readonly body: string;
      readonly ttlMs: number;
    }
  | { readonly op: 'release'; readonly owner: string }
  | { readonly op: 'renew'; readonly owner: string; readonly leaseMs: number };

export type RegisterFresh = readonly ['fresh'];
/** ['hit', state, fingerprint, status, body]; '' stands for a field the hash does not have. */
export type RegisterHit = readonly ['hit', string, string, string, string];
export type IdempotencyOutput = RegisterFresh | RegisterHit | 0 | 1;

export type IdempotencyState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'pending'; readonly fingerprint: string; readonly owner: string; readonly tag: number }
  | {
      readonly kind: 'completed';
      readonly fingerprint: string;
      readonly owner: string;
      readonly status: string;
      readonly body: string;
      readonly tag: number;
    };

type Present = Exclude<IdempotencyState, { kind: 'absent' }>;

const ABSENT: IdempotencyState = { kind: 'absent' };

/** A string field of a state's hash: its length, a colon, itself. */
const field = (value: string): string => `${value.length}:${value}`;

/**
 * PEXPIRE with a non-positive time deletes the key at once, and still answers 1. Each kind built
 * field by field: the checker steps the model hundreds of thousands of times, and an object spread
 * cost more than the rest of the step.
 */
function withExpiry(record: Present, ms: number, id: number): IdempotencyState {
  if (ms <= 0) return ABSENT;
  return record.kind === 'pending'
    ? { kind: 'pending', fingerprint: record.fingerprint, owner: record.owner, tag: id }
    : {
        kind: 'completed',
        fingerprint: record.fingerprint,
        owner: record.owner,
        status: record.status,
        body: record.body,
        tag: id,
      };
}

function register(
  state: IdempotencyState,
  input: Extract<IdempotencyInput, { op: 'register' }>,
  id: number,
): Step<IdempotencyState, IdempotencyOutput> {
  const leaseMs = requireInteger(input.leaseMs, 'register.leaseMs', Number.MIN_SAFE_INTEGER);
  switch (state.kind) {
    case 'absent':
      return {
        state: withExpiry(
          { kind: 'pending', fingerprint: input.fingerprint, owner: input.owner, tag: id },
          leaseMs,
          id,
        ),
        output: ['fresh'],
      };
    case 'pending':
      return { state, output: ['hit', 'pending', state.fingerprint, '', ''] };
    case 'completed':
      return { state, output: ['hit', 'completed', state.fingerprint, state.status, state.body] };
  }
}

function complete(
  state: IdempotencyState,
  input: Extract<IdempotencyInput, { op: 'complete' }>,
  id: number,
): Step<IdempotencyState, IdempotencyOutput> {
  const ttlMs = requireInteger(input.ttlMs, 'complete.ttlMs', Number.MIN_SAFE_INTEGER);
  if (state.kind === 'absent' || state.owner !== input.owner) return { state, output: 0 };
  // The script checks only the owner: the same owner completing twice overwrites the response.
  const completed: Present = {
    kind: 'completed',
    fingerprint: state.fingerprint,
    owner: state.owner,
    status: input.status,
    body: input.body,
    tag: state.tag,
  };
  return { state: withExpiry(completed, ttlMs, id), output: 1 };
}

function release(
  state: IdempotencyState,
  input: Extract<IdempotencyInput, { op: 'release' }>,
): Step<IdempotencyState, IdempotencyOutput> {
  if (state.kind !== 'pending' || state.owner !== input.owner) return { state, output: 0 };
  return { state: ABSENT, output: 1 };
}

function renew(
  state: IdempotencyState,
  input: Extract<IdempotencyInput, { op: 'renew' }>,
  id: number,
): Step<IdempotencyState, IdempotencyOutput> {
  const leaseMs = requireInteger(input.leaseMs, 'renew.leaseMs', Number.MIN_SAFE_INTEGER);
  if (state.kind !== 'pending' || state.owner !== input.owner) return { state, output: 0 };
  return { state: withExpiry(state, leaseMs, id), output: 1 };
}

function registerReplyMatches(expected: RegisterFresh | RegisterHit, observed: unknown): boolean {
  if (!Array.isArray(observed) || observed.length !== expected.length) return false;
  return expected.every((field, i) => {
    const seen = observed[i];
    // A client may map a field the hash lacks to nil instead of ''.
    if (i > 0 && field === '' && isNilReply(seen)) return true;
    return replyText(seen) === field;
  });
}

export const idempotency: Model<IdempotencyState, IdempotencyInput, IdempotencyOutput> = {
  name: 'idempotency',
  init: () => ABSENT,
  step(state, input, id) {
    switch (input.op) {
      case 'register':
        return register(state, input, id);
      case 'complete':
        return complete(state, input, id);
      case 'release':
        return release(state, input);
      case 'renew':
        return renew(state, input, id);
    }
  },
  expire: (state, tag) => (state.kind !== 'absent' && state.tag === tag ? ABSENT : state),
  leaseTag: (state) => (state.kind === 'absent' ? null : state.tag),
  expiryMs(input) {
    switch (input.op) {
      case 'register':
      case 'renew':
        return input.leaseMs;
      case 'complete':
        return input.ttlMs;
      case 'release':
        return undefined;
    }
  },
  outputMatches(expected, observed) {
    return typeof expected === 'number'
      ? integerReplyMatches(expected, observed)
      : registerReplyMatches(expected, observed);
  },
  hashState(state) {
    switch (state.kind) {
      case 'absent':
        return 'a';
      // Each string field prefixed with its length, so that distinct states never give one string
      // (cheaper than JSON.stringify, which was a tenth of the checker's time on large histories).
      case 'pending':
        return `p${field(state.fingerprint)}${field(state.owner)}${state.tag}`;
      case 'completed':
        return `c${field(state.fingerprint)}${field(state.owner)}${field(state.status)}${field(state.body)}${state.tag}`;
    }
  },
  describeInput(input) {
    switch (input.op) {
      case 'register':
        return `register(fingerprint=${quote(input.fingerprint)}, owner=${quote(input.owner)}, lease=${input.leaseMs}ms)`;
      case 'complete':
        return `complete(owner=${quote(input.owner)}, status=${quote(input.status)}, body=${quote(input.body)}, ttl=${input.ttlMs}ms)`;
      case 'release':
        return `release(owner=${quote(input.owner)})`;
      case 'renew':
        return `renew(owner=${quote(input.owner)}, lease=${input.leaseMs}ms)`;
    }
  },
  describeOutput(output) {
    if (typeof output === 'number') return String(output);
    if (output[0] === 'fresh') return 'fresh';
    const [, state, fingerprint, status, body] = output;
    return `hit(${state}, fingerprint=${quote(fingerprint)}, status=${quote(status)}, body=${quote(body)})`;
  },
  describeState(state) {
    switch (state.kind) {
      case 'absent':
        return 'absent';
      case 'pending':
        return `pending(fingerprint=${quote(state.fingerprint)}, owner=${quote(state.owner)}, lease of op ${state.tag})`;
      case 'completed':
        return (
          `completed(fingerprint=${quote(state.fingerprint)}, owner=${quote(state.owner)}, ` +
          `status=${quote(state.status)}, body=${quote(state.body)}, ttl of op ${state.tag})`
        );
    }
  },
};
