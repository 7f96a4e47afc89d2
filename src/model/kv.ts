/**
 * A string per key with get / put / append: the model of Porcupine's kv tests. The checker
 * partitions histories by OpRecord.key, so the state is one key's string; a key nobody wrote holds
 * "" (Porcupine's convention), and a get that observed nil is read as "".
 *
 * As in the register, prescribed outputs are tagged: only a get's output constrains the order.
 */
import type { Model } from './types.ts';
import { quote } from './reply.ts';

export type KvInput =
  | { readonly op: 'get' }
  | { readonly op: 'put'; readonly value: string }
  | { readonly op: 'append'; readonly value: string };

export type KvOutput = { readonly get: string } | { readonly put: true } | { readonly append: true };

/** `kind` names the state for the report's coverage table, which would otherwise list every string. */
export interface KvState {
  readonly kind: 'empty' | 'text';
  readonly text: string;
}

const EMPTY: KvState = { kind: 'empty', text: '' };
const holding = (text: string): KvState => (text === '' ? EMPTY : { kind: 'text', text });

export const kv: Model<KvState, KvInput, KvOutput> = {
  name: 'kv',
  init: () => EMPTY,
  step(state, input) {
    switch (input.op) {
      case 'get':
        return { state, output: { get: state.text } };
      case 'put':
        return { state: holding(input.value), output: { put: true } };
      case 'append':
        return { state: holding(state.text + input.value), output: { append: true } };
    }
  },
  // No expiry: a key keeps its string until written.
  expire: (state) => state,
  leaseTag: () => null,
  expiryMs: () => undefined,
  outputMatches(expected, observed) {
    if ('get' in expected)
      return observed === expected.get || (expected.get === '' && (observed === null || observed === undefined));
    return true;
  },
  hashState: (state) => state.text,
  // Gets and appends only extend the string, so a get still to come that no put can precede
  // observes a string that starts with the current one.
  resets: (input) => input.op === 'put',
  observes: (input) => input.op === 'get',
  canStillObserve(state, input, observed) {
    if (input.op !== 'get') return true;
    if (observed === null || observed === undefined) return state.text === '';
    return typeof observed !== 'string' || observed.startsWith(state.text);
  },
  describeInput(input) {
    return input.op === 'get' ? 'get()' : `${input.op}(${quote(input.value)})`;
  },
  describeOutput(output) {
    return 'get' in output ? quote(output.get) : 'ok';
  },
  describeState: (state) => quote(state.text),
};
