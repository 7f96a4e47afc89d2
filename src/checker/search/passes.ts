/**
 * The order in which the search's scan tries the entries it may place: in passes, by kind of entry.
 * Apart from the search because the choice is measured policy, not mechanics: every child is
 * tried whatever the pass, so it changes how soon a linearization is found, never whether it is.
 */
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, REAL } from '../problem.ts';

/**
 * The orders the scan can try entries in (passesOf). `call` (below) is measured best on most
 * histories. `answers-first` is the order a key `call` leaves undecided is searched in again
 * (search.ts): the answered entries first, then the expiries with a completion bound, then
 * everything without one (info ops, second executions, open-ended expiries) together. Where `call`
 * gets lost, it finds the plain explanation: an expiry placed as soon as it may be is found wrong
 * only at an answer much later (an acquire answered "full" needs both leases still live), and by
 * then every subset and order of the info ops placed in between is its own configuration. The
 * soak's undecided semaphore key (77 operations, 27 info ops, 26 possible second executions): `call`
 * spent 1,000,000 states there without backtracking over a single answered operation; this order
 * decides it in 142. It is not the first order because it defers the info ops, which is slower on
 * the histories below.
 */
export const SCAN_ORDERS = ['call', 'answers-first'] as const;
export type ScanOrder = (typeof SCAN_ORDERS)[number];

/**
 * Which pass of the scan each entry is tried in: first the entries with a completion bound, then
 * the info ops (in the first pass too when a pruner drops early what placing them too soon leads
 * to: Pruner.infoOpsEarly, see below), then the deferred ones: second executions and expiries
 * without a completion bound, which stay candidates for the rest of the search. Trying those only
 * when nothing else gets further leaves them out of the way of the operations that must be
 * explained; every child is still tried, so the order changes how soon a linearization is found,
 * never whether it is.
 *
 * An info op itself is not deferred, though it has no completion bound: its effect is often what a
 * later answer observed, and deferring it to the points where the bounded pass is stuck means
 * first exhausting every order of the bounded ops without it, then inserting each live info op
 * (those that never took effect too) at each of those stuck configurations, where the state is
 * usually wrong already. With appends every such order is its own state, so the cache merges
 * nothing: one kv key with four info appends (three that never took effect) took 928,111 states
 * deferred, 102,859 in call order (Porcupine's order). That key's model has a lookahead, which
 * drops such states early. Without one (a lock), an info op placed as soon as it can be spends an
 * option the rest of the history may need (an acquire that took the lock), and the search then
 * exhausts every continuation before trying without it; in a pass after the bounded entries, the
 * configurations without it fail first and dominate those with it (DominatedConfigurations). On
 * 2,000 generated polling lock histories: median 165 states (193 in call order), worst 8,257 (12,934).
 */
export function passesOf(
  problem: KeyProblem<unknown, unknown, unknown>,
  infoOpsEarly: boolean,
  order: ScanOrder = 'call',
): Uint8Array {
  const { n, kind, returnAt } = problem;
  const passOf = new Uint8Array(n);
  for (let e = 0; e < n; e++) {
    const unbounded = returnAt[e] === Infinity;
    if (order === 'answers-first') passOf[e] = unbounded ? 2 : kind[e] === EXPIRE ? 1 : 0;
    else passOf[e] = unbounded && kind[e] !== REAL ? 2 : unbounded && !infoOpsEarly ? 1 : 0;
  }
  return passOf;
}

/** Whether `answers-first` would scan this key in another order than `call` (else one search says all). */
export function ordersDiffer(problem: KeyProblem<unknown, unknown, unknown>): boolean {
  const { n, kind, returnAt } = problem;
  for (let e = 0; e < n; e++)
    if ((kind[e] === REAL && returnAt[e] === Infinity) || (kind[e] === EXPIRE && returnAt[e] !== Infinity)) return true;
  return false;
}
