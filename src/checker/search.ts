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
import { ordersDiffer, SCAN_ORDERS, type ScanOrder } from './search/passes.ts';
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
  /** The scan orders to try, each with the whole state budget, until one decides the key (passes.ts). */
  orders: readonly ScanOrder[] = SCAN_ORDERS,
): SearchOutcome<S> {
  let outcome = new Search(problem, budget, relaxed, deadline, pruning, orders[0]).run();
  let explored = outcome.explored;
  let ordersTried = 1;
  for (const order of orders.slice(1)) {
    // Only a state budget spent is worth another order: a time budget spent leaves none for it.
    if (outcome.verdict !== 'unknown' || outcome.exhausted !== 'states' || !ordersDiffer(problem)) break;
    const next = new Search(problem, budget, relaxed, deadline, pruning, order).run();
    explored += next.explored;
    ordersTried++;
    // An undecided key keeps the first order's stuck point: the one its diagnostics describe.
    outcome = next.verdict === 'unknown' ? { ...outcome, exhausted: next.exhausted } : next;
  }
  return ordersTried === 1 ? outcome : { ...outcome, explored, ordersTried };
}
