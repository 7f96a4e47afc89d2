/**
 * A log that only grows: `append` adds a letter, `read` answers the whole log. Every order of the
 * same appends gives a different state, so one linearized set fails in many states: the classic
 * load on a failed-configuration cache (Porcupine's kv `append`). No leases.
 */
import type { Model } from '../../../../src/model/types.ts';

export type AppendInput = { readonly op: 'append'; readonly letter: string } | { readonly op: 'read' };
export type AppendOutput = 'ok' | string;

export const appendLog: Model<string, AppendInput, AppendOutput> = {
  name: 'append-log',
  init: () => '',
  step: (state, input) =>
    input.op === 'append' ? { state: state + input.letter, output: 'ok' } : { state, output: state },
  expire: (state) => state,
  leaseTag: () => null,
  expiryMs: () => undefined,
  outputMatches: (expected, observed) => expected === observed,
  hashState: (state) => state,
  describeInput: (input) => (input.op === 'append' ? `append(${input.letter})` : 'read()'),
  describeOutput: (output) => JSON.stringify(output),
  describeState: (state) => JSON.stringify(state),
};
