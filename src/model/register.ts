/**
 * A single read / write / compare-and-set register: the model of Jepsen's cas-register tests and
 * of Porcupine's etcd logs. Not a Redis pattern: it exists so `chaoslua check` can judge histories
 * recorded elsewhere. Values are integers or strings; a register nobody wrote reads nil.
 *
 * Outputs the model prescribes are tagged by operation, because what a client observes is plain
 * (a read gives the value, a cas true or false, a write anything): `outputMatches` reads the tag.
 */
import type { Model } from './types.ts';
import { isNilReply, quote } from './reply.ts';

export type RegisterValue = number | string;

export type RegisterInput =
  | { readonly op: 'read' }
  | { readonly op: 'write'; readonly value: RegisterValue }
  | { readonly op: 'cas'; readonly from: RegisterValue; readonly to: RegisterValue };

export type RegisterOutput =
  | { readonly read: RegisterValue | null }
  | { readonly cas: boolean }
  | { readonly write: RegisterValue };

/** The value held, or null for a register never written. */
export type RegisterState = RegisterValue | null;

export const register: Model<RegisterState, RegisterInput, RegisterOutput> = {
  name: 'register',
  init: () => null,
  step(state, input) {
    switch (input.op) {
      case 'read':
        return { state, output: { read: state } };
      case 'write':
        return { state: input.value, output: { write: input.value } };
      case 'cas':
        return state === input.from ? { state: input.to, output: { cas: true } } : { state, output: { cas: false } };
    }
  },
  // No expiry: a register keeps its value until written.
  expire: (state) => state,
  leaseTag: () => null,
  expiryMs: () => undefined,
  outputMatches(expected, observed) {
    if ('read' in expected) return expected.read === null ? isNilReply(observed) : observed === expected.read;
    if ('cas' in expected) return observed === expected.cas;
    // A write acknowledges; what it answered ("ok", the value, nothing) says nothing about the state.
    return true;
  },
  hashState: (state) => (state === null ? 'n' : typeof state === 'number' ? `i${state}` : `s${state}`),
  describeInput(input) {
    switch (input.op) {
      case 'read':
        return 'read()';
      case 'write':
        return `write(${show(input.value)})`;
      case 'cas':
        return `cas(${show(input.from)} -> ${show(input.to)})`;
    }
  },
  describeOutput(output) {
    if ('read' in output) return output.read === null ? 'nil' : show(output.read);
    if ('cas' in output) return String(output.cas);
    return 'ok';
  },
  describeState: (state) => (state === null ? 'nil (never written)' : show(state)),
};

function show(value: RegisterValue): string {
  return typeof value === 'number' ? String(value) : quote(value);
}
