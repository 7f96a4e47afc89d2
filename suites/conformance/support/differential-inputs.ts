/**
 * The differential suite's inputs (./differential.ts): what one client may send, drawn by fast-check,
 * and which script with which arguments each input is.
 */
import fc from 'fast-check';
import type { IdempotencyInput, LockInput, RateLimitInput } from '../../../src/patterns/models.ts';

/** Keys one sequence waits on (each its own hash tag). */
export const KEYS_PER_RUN = 3;

/** One input as Redis receives it. */
export interface Invocation {
  /** Script file name under the model's lua/ folder, without .lua. */
  readonly script: string;
  readonly args: readonly (string | number)[];
}

export const keyIndex = fc.integer({ min: 0, max: KEYS_PER_RUN - 1 });
const owner = fc.constantFrom('o1', 'o2', 'o3');
const leaseMs = fc.integer({ min: 150, max: 600 });

export const idempotencyInput: fc.Arbitrary<IdempotencyInput> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('register'), fingerprint: fc.constantFrom('fpA', 'fpB'), owner, leaseMs }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('complete'),
      owner,
      status: fc.constantFrom('200', '201', '409'),
      body: fc.constantFrom('', '{"id":7}', 'ünï côdé ✓'),
      ttlMs: leaseMs,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('release'), owner }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('renew'), owner, leaseMs }) },
);

export const idempotencyInvocation = (input: IdempotencyInput): Invocation => {
  switch (input.op) {
    case 'register':
      return { script: 'register_or_get', args: [input.fingerprint, input.owner, input.leaseMs] };
    case 'complete':
      return { script: 'complete', args: [input.owner, input.status, input.body, input.ttlMs] };
    case 'release':
      return { script: 'release', args: [input.owner] };
    case 'renew':
      return { script: 'renew', args: [input.owner, input.leaseMs] };
  }
};

export const lockInput: fc.Arbitrary<LockInput> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('acquire'), token: owner, ttlMs: leaseMs }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release'), token: owner }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('extend'), token: owner, ttlMs: leaseMs }) },
);

export const lockInvocation = (input: LockInput): Invocation => {
  switch (input.op) {
    case 'acquire':
      return { script: 'acquire', args: [input.token, input.ttlMs] };
    case 'release':
      return { script: 'remove_if_matches', args: [input.token] };
    case 'extend':
      return { script: 'extend_if_matches', args: [input.token, input.ttlMs] };
  }
};

/** The model needs one limit per key (src/patterns/ratelimit/model.ts): key i has limit i + 1. */
export const hitOn = (key: number): RateLimitInput => ({ op: 'hit', limit: key + 1, windowSeconds: 1 });
