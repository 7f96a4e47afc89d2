/**
 * Steps the search need not take, each because another order it tries reaches every linearization
 * that step would: an identical info op's place (twins), a run of entries back to an earlier state
 * (detours), an entry that changes nothing (no effect). Whatever the model; kept apart from the
 * search's mechanics, each with the argument that it loses nothing.
 */
import { holdsLease } from '../../model/leases.ts';
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, GHOST, REAL } from '../problem.ts';
import type { SearchPath } from './configuration.ts';
import { isPlaced } from './configuration.ts';

/** Op entry -> the entry of its second execution, or -1. */
export function ghostOfEntry(problem: KeyProblem<unknown, unknown, unknown>): Int32Array {
  const ghostOf = new Int32Array(problem.n).fill(-1);
  for (let e = 0; e < problem.n; e++) if (problem.kind[e] === GHOST) ghostOf[problem.ref[e]] = e;
  return ghostOf;
}

/**
 * Info op entry -> the info op just before it (by invocation) with the same input and the same
 * second-execution status, or -1. Ops with a completion bound have none: their answers differ.
 */
export function earlierTwins(problem: KeyProblem<unknown, unknown, unknown>): Int32Array {
  const { n, kind, ref, ops, callAt, returnAt } = problem;
  const hasGhost = new Uint8Array(n);
  for (let e = 0; e < n; e++) if (kind[e] === GHOST) hasGhost[ref[e]] = 1;
  // An op whose lease cannot end within the history has no expiry entry (problem.ts): it is a twin
  // only of ops in the same case, never of one whose lease may run out.
  const hasExpiry = new Uint8Array(n);
  for (let e = 0; e < n; e++) if (kind[e] === EXPIRE) hasExpiry[ref[e]] = 1;
  const sets = new Map<string, number[]>();
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] !== Infinity) continue;
    const like = `${hasGhost[e]}${hasExpiry[e]}${JSON.stringify(ops[ref[e]].input)}`;
    const set = sets.get(like);
    if (set === undefined) sets.set(like, [e]);
    else set.push(e);
  }
  const before = new Int32Array(n).fill(-1);
  for (const set of sets.values()) {
    set.sort((a, b) => callAt[a] - callAt[b] || a - b);
    for (let k = 1; k < set.length; k++) before[set[k]] = set[k - 1];
  }
  return before;
}

/**
 * Identical info ops (same input, no completion bound, both with or both without a second
 * execution) differ only in when they may start and in their lease tag. If an earlier one is
 * unplaced, and this one's lease could already run out here, every linearization that places this
 * one here also works with the two swapped from here on: the earlier one can go wherever this
 * one can, and this one wherever the other went, its lease's expiry included, since all of its
 * windows are open already. Lease tags are identities, which models only compare, so the swap
 * gives the same states up to the tags' names and the same answers. So only the earliest unplaced
 * one of such a set is tried: a polling client's dozen refused acquires are one choice, not twelve.
 */
export function twinStandsIn<S>(path: SearchPath<S>, b: number): boolean {
  let a = path.twinBefore[b];
  while (a !== -1 && isPlaced(path.placed, a)) a = path.twinBefore[a];
  if (a === -1) return false;
  const expiry = path.expiryOf[b];
  return expiry === -1 || path.problem.callAt[expiry] <= frontier(path);
}

/** The time of the first return node in the list: no entry called later can be placed yet. */
function frontier<S>(path: SearchPath<S>): number {
  const { next } = path;
  let at = next[2 * path.problem.n];
  while (at !== -1 && (at & 1) === 0) at = next[at];
  return at === -1 ? Infinity : path.problem.returnAt[at >> 1];
}

/**
 * Has the run of entries just placed led back to the state of a configuration earlier on this
 * path, without placing anything the history requires? Then every continuation from here also
 * works from there: the run's optional entries (info ops, their second executions, expiries of
 * their leases; no completion bound) are unplaced there, but their return nodes lie at the end of
 * the list and block nothing, and its expiries of other leases are no-ops there that can be placed
 * first. So a shortest linearization (fewest entries other than expiries) never makes such a
 * detour, and pruning it loses nothing. That length is a function of the linearized set, not of
 * the path that reached it, so a configuration that failed because a detour below it was pruned
 * may still be cached: if it led to a shortest linearization, so would the earlier configuration,
 * with fewer entries, and that one is never pruned or cached as failed. Without this, a lease taken and run out by an info acquire
 * is a detour back to "absent", and a dozen identical refused acquires of a polling client
 * multiplied into every subset of such detours, past the search's budget.
 * Conditions, each needed by that argument:
 * - the run places an op or a second execution (a run of expiries alone may be the no-op expiry
 *   the earlier configuration is forced to place first, so nothing would be shorter);
 * - an op it placed has its expiry placed too, since from the earlier configuration that expiry
 *   could not follow; or its lease is not current at the end of the run, and the expiry is then
 *   a no-op a continuation can leave out (its lease comes back, if at all, only by the op's second
 *   execution, which has an expiry of its own with the same window);
 * - an entry with a completion bound in it is an expiry of a lease not current in the state both
 *   configurations share (a no-op there);
 * - no rollback is still to come: the lineage is part of the configuration then, and the expiries
 *   already placed change what a rollback reaches.
 */
export function returnsToEarlierState<S>(path: SearchPath<S>): boolean {
  if (path.relaxed && path.faultsLeft > 0) return false;
  const { model, kind, tag, returnAt } = path.problem;
  const { state, expiryOf, placed, stackEntry, stackState } = path;
  let placesAnOp = false;
  for (let s = path.sp - 1; s >= 0; s--) {
    const e = stackEntry[s];
    if (returnAt[e] !== Infinity && (kind[e] !== EXPIRE || holdsLease(model, state, tag[e]))) return false;
    if (expiryOf[e] !== -1 && !isPlaced(placed, expiryOf[e]) && holdsLease(model, state, tag[expiryOf[e]]))
      return false;
    placesAnOp ||= kind[e] !== EXPIRE;
    const earlier = stackState[s];
    if (placesAnOp && (earlier === state || path.hashAtDepth(s) === path.currentHash())) {
      return true;
    }
  }
  return false;
}

/**
 * An optional entry (an info op, a ghost) that would leave the state as it is: placing it now is
 * never needed, since leaving it out gives every later entry the same state and keeps the option of
 * placing it later, where it may matter. Without this, each such entry doubles the configurations
 * (placed or not, same state): a few long-lived info ops around a lossy fault used to exhaust the budget.
 */
export function noEffect<S>(path: SearchPath<S>, after: S): boolean {
  return after === path.state || path.problem.model.hashState(after) === path.currentHash();
}
