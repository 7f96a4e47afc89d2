import type { Model } from './types.ts';

/** Every lease live in `state`: the model's list when it keeps several, else its one lease tag. */
export function liveLeaseTags<S>(model: Model<S, any, any>, state: S): readonly number[] {
  if (model.leaseTags) return model.leaseTags(state);
  const tag = model.leaseTag(state);
  return tag === null ? [] : [tag];
}
