/**
 * A configuration of the search (the entries linearized so far and the model state they leave,
 * with the lineage in relaxed mode) as the search's parts read it. A pruner (pruning.ts) reads the
 * Configuration; the search's own parts (shortcuts, stuck point, rollbacks) read the path that led to
 * it too. Declared here, apart from the search, so those parts need not import it.
 */
import type { KeyProblem } from '../problem.ts';

/** The states of the key along the current path, newest first: a promoted replica holds a prefix of them. */
export interface Lineage<S> {
  readonly state: S;
  readonly hash: string;
  readonly parent: Lineage<S> | null;
  /**
   * The whole sequence, oldest first. A rollback keeps a prefix, so with two rollbacks to come the
   * order matters, not only the set: [a, b, c, b] can reach c again after a rollback to b, [a, c, b] cannot.
   */
  readonly sequence: string;
  /** Replicas WAIT acknowledged the write that made this state on (0: none, or an unguarded search). */
  readonly guard: number;
  /** In a guarded search, the operation (index into ops) whose second execution made this state, else -1. */
  readonly madeByGhostOf: number;
  /** reachKey's answer for this node, once asked. */
  reach?: string;
}

/** What a pruner reads of the configuration the search is in; the search changes it in place as it moves. */
export interface Configuration<S> {
  /** Relaxed mode: rollbacks (FAULT entries) are placed too. */
  readonly relaxed: boolean;
  /** Entry -> the expiry entry of the lease it may set, or -1. */
  readonly expiryOf: Int32Array;
  /** The entries linearized, a bit per entry (isPlaced): the same array for the whole search. */
  readonly placed: Uint16Array;
  readonly state: S;
  /** FAULT entries not yet placed. */
  readonly faultsLeft: number;
  /** Relaxed mode: the states a rollback still to come may restore; null in a strict search. */
  readonly lineage: Lineage<S> | null;
}

/** The path that led to the configuration: the stack of entries placed, for the search's own parts. */
export interface SearchPath<S> extends Configuration<S> {
  readonly problem: KeyProblem<S, unknown, unknown>;
  /** The call/return list's links (node 2 * problem.n is its head). */
  readonly next: Int32Array;
  /** Info op entry -> the identical info op just before it (shortcuts.ts, earlierTwins), or -1. */
  readonly twinBefore: Int32Array;
  /** Op entry -> the entry of its second execution, or -1. */
  readonly ghostOf: Int32Array;
  /** Entries on the stack. */
  readonly sp: number;
  /** Answered and indeterminate ops on the stack (REAL entries). */
  readonly realDepth: number;
  readonly stackEntry: Int32Array;
  /** Per depth, the state before that depth's entry was placed. */
  readonly stackState: readonly S[];
  readonly stackForced: Uint8Array;
  /** Per depth, a fault entry's alternative (lineage.ts, faultAlternatives) that was taken. */
  readonly stackChoice: Int32Array;
  /** Relaxed mode: per depth, the lineage before that depth's entry was placed. */
  readonly stackLineage: readonly (Lineage<S> | null)[];
  /** The model's hash of the state at a depth of the stack (sp: the current state). */
  hashAtDepth(depth: number): string;
  currentHash(): string;
}

export function isPlaced(placed: Uint16Array, entry: number): boolean {
  return ((placed[entry >> 4] >> (entry & 15)) & 1) === 1;
}

export function allPlaced(placed: Uint16Array, entries: Int32Array): boolean {
  for (let c = 0; c < entries.length; c++) if (!isPlaced(placed, entries[c])) return false;
  return true;
}
