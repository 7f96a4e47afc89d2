/**
 * What one search of a key answers: the verdict, the states it cost, and what the rest of the
 * checker reads to explain it (the stuck point, the rollbacks and second executions a linearization
 * used). Kept apart from the search so that its readers need not load it.
 */
import { GHOST, type KeyProblem } from '../problem.ts';

export interface StuckPoint<S> {
  /** Indices into problem.ops of the longest linearizable prefix found, in linearization order. */
  readonly prefix: readonly number[];
  /** Index into problem.ops of the operation that no order could place after that prefix. */
  readonly op: number;
  /** The model state after the prefix. */
  readonly state: S;
  /** Distinct states (this one first, at most STATES_PER_OP: stuck.ts) in which the search found no way past `op`. */
  readonly states: readonly S[];
}

export interface Rollback<S> {
  /** Index into problem.faults. */
  readonly fault: number;
  readonly from: S;
  readonly to: S;
  /** Indices into problem.ops of the operations whose effect the rollback discarded. */
  readonly discarded: readonly number[];
}

export interface SearchOutcome<S> {
  readonly verdict: 'ok' | 'illegal' | 'unknown';
  readonly explored: number;
  /** Failed-configuration cache: linearized sets compared in lookups. */
  readonly cacheComparisons: number;
  /** Deepest point the search could not get past (illegal, and unknown when one was seen). */
  readonly stuck?: StuckPoint<S>;
  /** Relaxed mode, ok: the rollbacks the explaining linearization used. */
  readonly rollbacks?: readonly Rollback<S>[];
  /**
   * Ok: indices into problem.ops of the operations whose second execution the linearization found
   * placed with an effect (not the forced no-op at the end of its window). The search takes the
   * first linearization it finds, so one of these may have been placed where it was not needed.
   */
  readonly secondExecutions?: readonly number[];
  /** Unknown: which budget ran out. */
  readonly exhausted?: 'states' | 'time';
  /** Scan orders searched when more than one was (search.ts), each with the whole state budget; `explored` counts them all. */
  readonly ordersTried?: number;
  /** Configurations entered, by the kind of entry that made them: where a search's states go. */
  readonly enteredByKind?: EnteredByKind;
}

export interface EnteredByKind {
  readonly answered: number;
  readonly indeterminate: number;
  readonly secondExecution: number;
  readonly expiry: number;
  readonly rollback: number;
}

/** Indices into problem.ops of the ghosts on the stack entered unforced: they took effect (a no-effect ghost is never entered by choice: noEffect). */
export function secondExecutionsOnStack(path: {
  readonly problem: KeyProblem<unknown, unknown, unknown>;
  readonly sp: number;
  readonly stackEntry: Int32Array;
  readonly stackForced: Uint8Array;
}): number[] {
  const { kind, ref } = path.problem;
  const placed: number[] = [];
  for (let s = 0; s < path.sp; s++)
    if (kind[path.stackEntry[s]] === GHOST && path.stackForced[s] === 0) placed.push(ref[path.stackEntry[s]]);
  return placed;
}
