/** The lock's named invariants: one holder at a time, and only the holder releases or extends. */
import type { LockInput, LockOutput, LockState } from './model.ts';
import { opPhrase, outputText, type Classifier, holderPhrase, keyName } from '../../pattern.ts';

export const classifyLock: Classifier<LockState, LockInput, LockOutput> = (context) => {
  const { model, op, state, expected, key } = context;
  if (model.outputMatches(expected, op.output) || !model.outputMatches(1, op.output)) return undefined;
  const holder = holderPhrase(context, 'TTL');
  const held =
    state.kind === 'held'
      ? `token ${JSON.stringify(state.token)} held it${holder ? ` (${holder})` : ''}`
      : 'nobody held it (released, or its TTL had run out)';
  if (op.input.op === 'acquire') {
    // A holder whose own acquire succeeds again was not excluded either: its lock was taken from it
    // (deleted or overwritten) without its knowledge, so whoever else acquired meanwhile also held it.
    const consequence =
      state.kind === 'held' && state.token === op.input.token
        ? 'the lock was not exclusive (its holder acquired it a second time, so it was freed behind its back)'
        : 'two clients both hold the lock';
    return {
      invariant: 'one-holder',
      message: `${opPhrase(model, op)} acquired lock ${keyName(key)} while ${held}: ${consequence}.`,
    };
  }
  return {
    invariant: 'no-stale-release',
    message:
      `${opPhrase(model, op)} returned 1 on lock ${keyName(key)}, but ${held} and the model prescribes ` +
      `${outputText(model, expected)}: a token that does not hold the lock changed it.`,
  };
};
