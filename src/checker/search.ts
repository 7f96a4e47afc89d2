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
import { deferredFor, whenBranching, type ModelPrunerFactory, type PrunerFactory } from './search/pruning.ts';

export type { EnteredByKind, Rollback, SearchOutcome, StuckPoint } from './search/outcome.ts';

/**
 * The pruning of a spec that names none: the pruners the model's optional hooks enable, each null
 * for a model without its hooks (Model.resets and canStillObserve: the growth lookahead;
 * Model.requires, grants and holdsIdentity: the holder lookahead).
 */
export const MODEL_PRUNING: readonly ModelPrunerFactory[] = [
  growthLookahead,
  whenBranching(holderLookahead, ({ model }) => model.requires !== undefined && model.grants !== undefined),
];

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
  const quick = plainFirst(problem, budget, relaxed, deadline, pruning, orders[0]);
  if (quick?.verdict === 'ok') return quick;
  // The first pass spent part of the budget: a key undecided says one total against one budget.
  let outcome = new Search(problem, budget - (quick?.explored ?? 0), relaxed, deadline, pruning, orders[0]).run();
  let explored = outcome.explored + (quick?.explored ?? 0);
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
  if (ordersTried > 1) return { ...outcome, explored, ordersTried };
  // The unpruned first pass's states count too: they were spent.
  return quick === undefined ? outcome : { ...outcome, explored };
}

/**
 * A key most histories place in about one state per entry (every answer fits the first order
 * tried), and there the setup of a pruner marked whenBranching (the holder lookahead's answers and
 * hold pairs, a derived model's probes) costs more than the whole search: on 20,000 lock operations
 * that never branch it was 40% of the check. So a strict search first runs without those pruners on
 * a budget of a few states per entry, and keeps only an ok from it (pruners cut dead branches only,
 * so an ok is the same ok; its states count). A key it cannot place in that budget, or finds
 * illegal, is searched again with every pruner, whose stuck point and up-front illegality are the
 * ones reported. Relaxed mode is left alone: which rollbacks an ok used is reported, and the pruned
 * search is the one that chose them until now.
 */
function plainFirst<S, I, O>(
  problem: KeyProblem<S, I, O>,
  budget: number,
  relaxed: boolean,
  deadline: number,
  pruning: readonly PrunerFactory<S, I, O>[],
  order: ScanOrder,
): SearchOutcome<S> | undefined {
  const eager = pruning.filter((factory) => !deferredFor(factory, problem));
  if (relaxed || eager.length === pruning.length) return undefined;
  // At most a quarter of the budget, so that a small one is left mostly to the pruned search.
  const quickBudget = Math.min(Math.floor(budget / 4), PLAIN_STATES_PER_ENTRY * problem.n + PLAIN_STATES_EXTRA);
  return new Search(problem, quickBudget, relaxed, deadline, eager, order).run();
}

/** The first pass's budget: 2 states an entry and 64 more (a straight placement takes 1). */
const PLAIN_STATES_PER_ENTRY = 2;
const PLAIN_STATES_EXTRA = 64;
