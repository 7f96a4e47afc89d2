import type { Model } from './types.ts';

/** Every lease live in `state`: the model's list when it keeps several, else its one lease tag. */
export function liveLeaseTags<S>(model: Model<S, any, any>, state: S): readonly number[] {
  if (model.leaseTags) return model.leaseTags(state);
  const tag = model.leaseTag(state);
  return tag === null ? [] : [tag];
}

/** Is lease `tag` live in `state`? (No list built for a one-lease model: the search asks this in its inner loop.) */
export function holdsLease<S>(model: Model<S, any, any>, state: S, tag: number): boolean {
  return model.leaseTags ? model.leaseTags(state).includes(tag) : model.leaseTag(state) === tag;
}
