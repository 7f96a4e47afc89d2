/**
 * The idempotency store's named invariants (DESIGN.md): which one a stuck point breaks depends on
 * what the unexplained operation claimed and what the key held at that point.
 */
import type { IdempotencyInput, IdempotencyOutput, IdempotencyState } from './model.ts';
import { opPhrase, outputText, type Classifier, type StuckContext, holderPhrase, keyName } from '../../pattern.ts';

type Context = StuckContext<IdempotencyState, IdempotencyInput, IdempotencyOutput>;

export const classifyIdempotency: Classifier<IdempotencyState, IdempotencyInput, IdempotencyOutput> = (context) => {
  const { model, op, state, expected } = context;
  const observed = op.output;
  if (model.outputMatches(expected, observed)) return undefined;
  if (op.input.op === 'register') {
    const sawFresh = model.outputMatches(['fresh'], observed);
    if (sawFresh && state.kind === 'pending') return oneWinner(context, state);
    if (state.kind === 'completed') return resurrectedByRead(context, sawFresh);
    return undefined;
  }
  if (!model.outputMatches(1, observed)) return undefined;
  if (state.kind === 'completed' && op.input.op !== 'complete') return resurrectedByWrite(context);
  return staleOverwrite(context, state);
};

function oneWinner(context: Context, state: Extract<IdempotencyState, { kind: 'pending' }>) {
  const { model, op, key } = context;
  const holder = holderPhrase(context, 'lease') ?? 'an earlier register';
  return {
    invariant: 'one-winner',
    message:
      `${opPhrase(model, op)} returned fresh on key ${keyName(key)} while owner ${JSON.stringify(state.owner)} ` +
      `still held it as pending (${holder}): two owners both believe they hold the key.`,
  };
}

function resurrectedByRead(context: Context, sawFresh: boolean) {
  const { model, op, key, expected } = context;
  const holder = holderPhrase(context, 'TTL') ?? 'an earlier complete';
  const seen = sawFresh ? 'found it absent (fresh)' : `read it as ${outputText(model, op.output)}`;
  return {
    invariant: 'no-resurrection',
    message:
      `${opPhrase(model, op)} ${seen} on key ${keyName(key)}, but the key held the completed response ` +
      `${outputText(model, expected)} (${holder}): a completed record changed or vanished before its TTL.`,
  };
}

function resurrectedByWrite(context: Context) {
  const { model, op, key } = context;
  const holder = holderPhrase(context, 'TTL') ?? 'an earlier complete';
  const effect = op.input.op === 'release' ? 'deleted' : 'replaced the TTL of';
  return {
    invariant: 'no-resurrection',
    message:
      `${opPhrase(model, op)} returned 1 on key ${keyName(key)} although the key was completed (${holder}): ` +
      `it ${effect} a completed record before its TTL, so the operation can run again.`,
  };
}

function staleOverwrite(context: Context, state: IdempotencyState) {
  const { model, op, key } = context;
  const owner = JSON.stringify((op.input as { owner: string }).owner);
  const holder = holderPhrase(context, state.kind === 'completed' ? 'TTL' : 'lease');
  const held =
    state.kind === 'absent'
      ? 'the key was absent (never registered, released, or its lease had run out)'
      : `the key was ${state.kind} for owner ${JSON.stringify(state.owner)}${holder ? ` (${holder})` : ''}`;
  return {
    invariant: 'no-stale-overwrite',
    message:
      `${opPhrase(model, op)} returned 1 on key ${keyName(key)}, but owner ${owner} did not hold it then: ` +
      `${held}; an owner whose lease was lost, or who never held the key, changed it.`,
  };
}
