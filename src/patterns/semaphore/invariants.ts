/** The semaphore's named invariants: never more than `limit` live holders, and an expired holder never comes back. */
import type { SemaphoreInput, SemaphoreOutput, SemaphoreState } from './model.ts';
import { opPhrase, outputText, type Classifier, keyName } from '../../pattern.ts';

const holdersPhrase = (state: SemaphoreState) =>
  state.holders.length === 0
    ? 'no holder was live'
    : `${state.holders.length} holder(s) were live (${state.holders.map((h) => JSON.stringify(h.token)).join(', ')})`;

export const classifySemaphore: Classifier<SemaphoreState, SemaphoreInput, SemaphoreOutput> = (context) => {
  const { model, op, state, expected, key } = context;
  // Only a 1 the model refuses breaks a named invariant: a 0 where 1 was due is a refusal, not a breach.
  if (model.outputMatches(expected, op.output) || !model.outputMatches(1, op.output)) return undefined;
  // A holder refused renewal but granted it (reacquire: 'counts') took no new place: not a breach of the limit.
  if (op.input.op === 'acquire' && !state.holders.some((h) => h.token === op.input.token)) {
    return {
      invariant: 'at-most-limit',
      message:
        `${opPhrase(model, op)} was granted a place on ${keyName(key)} while ${holdersPhrase(state)}: ` +
        `more than the limit of ${op.input.limit} hold it at once.`,
    };
  }
  if (op.input.op === 'refresh') {
    return {
      invariant: 'no-stale-refresh',
      message:
        `${opPhrase(model, op)} returned 1 on ${keyName(key)}, but token ${JSON.stringify(op.input.token)} was not a live holder ` +
        `(its deadline had passed, or it had released, or it never held) and the model prescribes ${outputText(model, expected)}: ` +
        'a holder came back without acquiring.',
    };
  }
  return undefined;
};
