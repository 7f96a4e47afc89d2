/**
 * A register with a TTL, the smallest model with leases: `take` claims a free key for `ms`,
 * `read` answers the holder, `drop` frees the key for its holder. Lets the checker be tested
 * without depending on the production models.
 */
import type { Model } from '../../../../src/model/types.ts';

export type LeaseInput =
  | { readonly op: 'take'; readonly who: string; readonly ms: number }
  | { readonly op: 'read' }
  | { readonly op: 'drop'; readonly who: string };

export type LeaseOutput = 0 | 1 | string | null;

export interface LeaseState {
  readonly holder: string | null;
  readonly tag: number | null;
}

const FREE: LeaseState = { holder: null, tag: null };

export const leaseRegister: Model<LeaseState, LeaseInput, LeaseOutput> = {
  name: 'lease-register',
  init: () => FREE,
  step(state, input, id) {
    switch (input.op) {
      case 'take':
        return state.holder === null ? { state: { holder: input.who, tag: id }, output: 1 } : { state, output: 0 };
      case 'read':
        return { state, output: state.holder };
      case 'drop':
        return state.holder === input.who ? { state: FREE, output: 1 } : { state, output: 0 };
    }
  },
  expire: (state, tag) => (state.tag === tag ? FREE : state),
  leaseTag: (state) => state.tag,
  expiryMs: (input) => (input.op === 'take' ? input.ms : undefined),
  outputMatches: (expected, observed) => expected === observed,
  hashState: (state) => `${state.holder ?? '-'}#${state.tag ?? '-'}`,
  describeInput: (input) => (input.op === 'read' ? 'read' : `${input.op}(${input.who})`),
  describeOutput: (output) => JSON.stringify(output),
  describeState: (state) => (state.holder === null ? 'free' : `held by ${state.holder} (lease of op ${state.tag})`),
};
