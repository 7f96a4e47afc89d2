/**
 * Names the invariant an unexplainable operation breaks. The spec carries the classifier (a pattern
 * hands in its own, src/patterns/<name>/invariants.ts); whatever it does not name, and every spec
 * without one (a bare model: register, kv), is model-conformance.
 */
import type { OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';
import { keyName } from './words.ts';
import { opPhrase, outputText } from '../describe.ts';
import type { StuckPoint } from '../search.ts';
import type { CheckSpec } from '../spec.ts';
import type { Classification, StuckContext } from './types.ts';

export type { Classification, Classifier, StuckContext } from './types.ts';

export interface ClassifiedStuck<I, O> extends Classification {
  readonly witness: readonly OpRecord<I, O>[];
  readonly modelState: string;
  readonly expected: string;
}

/**
 * The search may have been stuck on the operation in several states (different orders of the
 * operations before it); each is a consistent account of the past, so the most specific invariant
 * any of them shows is named, and the deepest state otherwise.
 */
export function classifyStuck<S, I, O>(
  spec: CheckSpec<S, I, O>,
  key: string,
  ops: readonly OpRecord<I, O>[],
  stuck: StuckPoint<S>,
  eps: number,
): ClassifiedStuck<I, O> {
  const { model, classify } = spec;
  const priority = spec.classifyPriority ?? [];
  const contexts = stuck.states.map((state) => stuckContext(model, key, ops, stuck.op, state, eps));
  let chosen = { context: contexts[0], classification: conformance(contexts[0]) };
  let chosenRank = Infinity;
  if (classify !== undefined) {
    for (const context of contexts) {
      const named = classify(context);
      if (named === undefined) continue;
      const found = priority.indexOf(named.invariant);
      const rank = found === -1 ? priority.length : found;
      if (rank < chosenRank) {
        chosen = { context, classification: named };
        chosenRank = rank;
      }
    }
  }
  const { op, holder, state, expected } = chosen.context;
  const witness = holder !== undefined && holder !== op ? [holder, op] : [op];
  witness.sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  return {
    ...chosen.classification,
    witness,
    modelState: model.describeState(state),
    expected: outputText(model, expected),
  };
}

function stuckContext<S, I, O>(
  model: Model<S, I, O>,
  key: string,
  ops: readonly OpRecord<I, O>[],
  opIndex: number,
  state: S,
  eps: number,
): StuckContext<S, I, O> {
  const op = ops[opIndex];
  const expected = model.step(state, op.input, op.id).output;
  const tag = model.leaseTag(state);
  const holder = tag === null ? undefined : ops.find((candidate) => candidate.id === tag);
  const holderMs = holder === undefined ? undefined : model.expiryMs(holder.input);
  return {
    model,
    key,
    op,
    state,
    expected,
    holder,
    holderLeaseFloor: holder === undefined || holderMs === undefined ? undefined : holder.invokedAt + holderMs - eps,
  };
}

function conformance<S, I, O>(context: StuckContext<S, I, O>): Classification {
  const { model, op, key, expected, state } = context;
  if (model.outputMatches(expected, op.output)) {
    return {
      invariant: 'model-conformance',
      message:
        `${opPhrase(model, op)} on key ${keyName(key)} cannot be placed in any order consistent with the ` +
        `operations around it; the longest explainable prefix leaves the key ${model.describeState(state)}.`,
    };
  }
  return {
    invariant: 'model-conformance',
    message:
      `${opPhrase(model, op)} returned ${outputText(model, op.output)} on key ${keyName(key)}, which no order ` +
      `of the operations before it explains: after the longest explainable prefix the key was ` +
      `${model.describeState(state)} and the model prescribes ${outputText(model, expected)}.`,
  };
}
