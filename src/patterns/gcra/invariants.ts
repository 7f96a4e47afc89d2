/** The GCRA limiter's named invariant: no hit is allowed while all `burst` places are taken. */
import type { GcraInput, GcraOutput, GcraState } from './model.ts';
import { opPhrase, type Classifier, keyName } from '../../pattern.ts';

export const classifyGcra: Classifier<GcraState, GcraInput, GcraOutput> = (context) => {
  const { model, op, state, expected, key } = context;
  if (expected !== 0 || !model.outputMatches(1, op.output)) return undefined;
  return {
    invariant: 'burst-respected',
    message:
      `${opPhrase(model, op)} was allowed on key ${keyName(key)} with all ${op.input.burst} places taken ` +
      `(${state.places.length} hits none of which could have been freed yet, each holding its place at least ` +
      `one interval of ${op.input.periodMs / op.input.rate} ms): more than the burst got through.`,
  };
};
