/**
 * What the checker judges a history against, handed to it whole: the model, and what a pattern adds
 * to it (the classifier that names the invariant a stuck point breaks, what a key left without a
 * TTL breaks, the pruning its search uses). A pattern (src/patterns/<name>) is one as it stands; a
 * bare model is one with nothing added, so every violation of it is model-conformance and its search
 * prunes with what the model's hooks enable. The checker never looks a pattern up.
 */
import type { Model } from '../model/types.ts';
import type { Classifier } from './invariants/types.ts';
import type { PrunerFactory } from './search/pruning.ts';

export interface CheckSpec<S = any, I = any, O = any> {
  readonly model: Model<S, I, O>;
  /** Names the invariant a stuck point breaks; absent, or undefined from it: model-conformance. */
  classify?(context: Parameters<Classifier<S, I, O>>[0]): ReturnType<Classifier<S, I, O>>;
  /** When the search was stuck in several states, the first of these named wins. */
  readonly classifyPriority?: readonly string[];
  /** The post-run TTL probe: what a key left without a TTL breaks, and what it does then. */
  readonly noTtl?: { readonly invariant: string; readonly consequence: string };
  /**
   * What the pattern adds to the search (search/pruning.ts), the whole list when given; absent: the
   * pruners the model's optional hooks enable (Model.resets/canStillObserve → growth lookahead;
   * Model.requires/grants/holdsIdentity (+ holderOf/requiresVacant/mayEnd/answerLeaves/excludes) →
   * holder lookahead), MODEL_PRUNING in search.ts.
   */
  readonly pruning?: readonly PrunerFactory<S, I, O>[];
  /**
   * Optional, for a pattern whose scripts read the server's clock (TIME) for more than expiry: is this
   * answer one a server clock moved back could give on its own, changing nothing (a GCRA limiter's
   * refusal: its arrival time, stored by a clock that read ahead, looks later than it is)? The
   * clock-loss re-check leaves such answers out while a moved clock can still be felt (./clock-loss.ts).
   */
  clockRefusal?(input: I, output: unknown): boolean;
}

/** A spec, or a model alone (a spec with nothing added). */
export type Checkable<S = any, I = any, O = any> = CheckSpec<S, I, O> | Model<S, I, O>;

export const specOf = <S, I, O>(checkable: Checkable<S, I, O>): CheckSpec<S, I, O> =>
  'model' in checkable ? checkable : { model: checkable };
