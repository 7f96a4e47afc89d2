/**
 * One key's linearizability search with the pruning its spec adds: the entry the rest of the
 * checker calls. The search itself is in search/generic-search.ts, its parts beside it; the
 * pruners the models' optional hooks enable are search/growth-lookahead.ts and search/holder-lookahead.ts.
 */
import type { KeyProblem } from './problem.ts';
import { Search } from './search/generic-search.ts';
import { growthLookahead } from './search/growth-lookahead.ts';
import { holderLookahead } from './search/holder-lookahead.ts';
import type { SearchOutcome } from './search/outcome.ts';
import type { ModelPrunerFactory, PrunerFactory } from './search/pruning.ts';

export type { EnteredByKind, Rollback, SearchOutcome, StuckPoint } from './search/outcome.ts';

/**
 * The pruning of a spec that names none: the pruners the model's optional hooks enable, each null
 * for a model without its hooks (Model.resets and canStillObserve: the growth lookahead;
 * Model.requires, grants and holdsIdentity: the holder lookahead).
 */
export const MODEL_PRUNING: readonly ModelPrunerFactory[] = [growthLookahead, holderLookahead];

/**
 * Strict mode checks the history as recorded. Relaxed mode also places each FAULT entry, whose
 * effect may roll the key back to any state on the current lineage (or that state with its lease
 * run out, when the lease's expiry was already placed).
 */
export function searchKey<S, I, O>(
  problem: KeyProblem<S, I, O>,
  budget: number,
  relaxed: boolean,
  /** performance.now() instant after which the search gives up as unknown. */
  deadline = Infinity,
  /** The spec's pruning (CheckSpec.pruning); absent: the model's. */
  pruning: readonly PrunerFactory<S, I, O>[] = MODEL_PRUNING,
): SearchOutcome<S> {
  return new Search(problem, budget, relaxed, deadline, pruning).run();
}
