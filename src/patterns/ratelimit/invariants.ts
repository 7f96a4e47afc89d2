/** The limiter's named invariant: no hit is allowed past the limit within one window. */
import type { RateLimitInput, RateLimitOutput, RateLimitState } from './model.ts';
import { opPhrase, type Classifier, holderPhrase, keyName } from '../../pattern.ts';

export const classifyRateLimit: Classifier<RateLimitState, RateLimitInput, RateLimitOutput> = (context) => {
  const { model, op, state, expected, key } = context;
  if (expected !== 0 || !model.outputMatches(1, op.output) || state.kind !== 'window') return undefined;
  const window = holderPhrase(context, 'window') ?? 'an earlier hit';
  return {
    invariant: 'limit-respected',
    message:
      `${opPhrase(model, op)} was allowed on key ${keyName(key)} although ${state.allowed} hits were already ` +
      `allowed in the window opened by ${window}: the limit of ${op.input.limit} was exceeded.`,
  };
};
