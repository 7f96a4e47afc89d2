import type { OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';

/** Where the search got stuck, seen from the operation it could not place. */
export interface StuckContext<S, I, O> {
  readonly model: Model<S, I, O>;
  readonly key: string;
  /** The first operation no order could explain. */
  readonly op: OpRecord<I, O>;
  /** The model's state after the longest explainable prefix. */
  readonly state: S;
  /** What the model prescribes for `op` in that state. */
  readonly expected: O;
  /** The operation whose lease or TTL is current in `state`, if it is one of the key's. */
  readonly holder: OpRecord<I, O> | undefined;
  /** Earliest instant the holder's lease could have run out (invokedAt + ms − eps). */
  readonly holderLeaseFloor: number | undefined;
}

export interface Classification {
  readonly invariant: string;
  /** One sentence naming clients, key and times. */
  readonly message: string;
}

/** One per model: names the invariant a stuck point breaks, or undefined for model-conformance. */
export type Classifier<S, I, O> = (context: StuckContext<S, I, O>) => Classification | undefined;
