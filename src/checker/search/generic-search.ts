/**
 * Wing & Gong's linearizability search with Lowe's memoisation, shaped as Porcupine's checkSingle:
 * a DFS over a doubly linked list of call/return nodes in time order. At each step any entry whose
 * call node precedes the first return node still in the list may be linearized (its invocation
 * precedes the earliest completion bound of what is left); reaching a return node means the entry
 * it belongs to can no longer be placed, so the search backtracks. A configuration (set of
 * linearized entries, model state) that failed once fails again, so it is cached and never re-entered.
 *
 * This file holds the search's mechanics: the list, the stack, the scan and the backtracking. Its
 * caches, shortcuts, relaxed-mode lineage and stuck point are in files of their own beside it, and
 * what a model or pattern knows that prunes it comes in from outside, as Pruners (pruning.ts).
 */
import { holdsLease } from '../../model/leases.ts';
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, FAULT, GHOST, REAL } from '../problem.ts';
import { lift, type ScanList, scanList, unlift } from './scan-list.ts';
import type { Lineage, SearchPath } from './configuration.ts';
import { isPlaced } from './configuration.ts';
import { DominatedConfigurations, FailedConfigurations, zobristKeys } from './failed-configurations.ts';
import {
  faultAlternatives,
  leaseGoneForGood,
  lineageAfter,
  lineageNode,
  reachKey,
  rollbacksOnStack,
} from './lineage.ts';
import { type EnteredByKind, type SearchOutcome, secondExecutionsOnStack } from './outcome.ts';
import { passesOf, type ScanOrder } from './passes.ts';
import { DROP, KEEP, type Pruner, type PrunerFactory } from './pruning.ts';
import { earlierTwins, ghostOfEntry, noEffect, returnsToEarlierState, twinStandsIn } from './shortcuts.ts';
import { StuckPoints } from './stuck.ts';

/** States between two readings of the clock: reading it on every step would cost more than the step. */
const CLOCK_EVERY = 256;

/** A pruner that keeps books as entries are placed and unplaced. */
type Bookkeeper<S> = Pruner<S> & Required<Pick<Pruner<S>, 'place' | 'unplace'>>;

/**
 * One search of one key. Strict mode checks the history as recorded. Relaxed mode also places each
 * FAULT entry, whose effect may roll the key back to any state on the current lineage (or that
 * state with its lease run out, when the lease's expiry was already placed).
 */
export class Search<S, I, O> implements SearchPath<S> {
  /** The call and return nodes in time order (scan-list.ts). */
  private readonly list: ScanList;
  private readonly head: number;
  readonly next: Int32Array;
  readonly expiryOf: Int32Array;
  readonly twinBefore: Int32Array;
  readonly ghostOf: Int32Array;
  readonly placed: Uint16Array;
  private readonly failed = new FailedConfigurations();
  private readonly dominated: DominatedConfigurations;
  private readonly zobrist: Int32Array;
  /** Zobrist hash of the linearized entries. */
  private bitsHash = 0;
  /** Zobrist hash of the linearized entries that have a completion bound (the part dominance must match). */
  private boundHash = 0;
  readonly stackEntry: Int32Array;
  readonly stackState: S[];
  readonly stackForced: Uint8Array;
  readonly stackChoice: Int32Array;
  readonly stackLineage: (Lineage<S> | null)[];
  sp = 0;
  state: S;
  lineage: Lineage<S> | null;
  private mandatoryLeft: number;
  faultsLeft = 0;
  realDepth = 0;
  private explored = 0;
  /** Per kind of entry (EnteredByKind's fields in order), the configurations it entered. */
  private readonly entered = new Float64Array(5);
  private readonly stuck = new StuckPoints<S>();
  /**
   * The model's hash of the state at each depth of the stack, computed once when first asked for:
   * the cache, the detour check and noEffect ask for the same state's hash again and again, and
   * hashing (a JSON string, for most models) was the most expensive step of a search.
   */
  private readonly hashAt: (string | undefined)[];
  private readonly pruners: readonly Pruner<S>[];
  private readonly bookkeepers: readonly Bookkeeper<S>[];
  /** Per entry, the pass of the scan it is tried in (passes.ts). */
  private readonly passOf: Uint8Array;
  /** Entries not yet placed, per pass. */
  private readonly left = new Int32Array(3);
  /** The list node the scan is at; for a fault entry resumed after backtracking, its next alternative. */
  private node: number;
  private choiceFrom = 0;
  /** The pass the scan is in (passes.ts). */
  private pass = 0;
  private nextClockReading: number;

  constructor(
    readonly problem: KeyProblem<S, I, O>,
    private readonly budget: number,
    readonly relaxed: boolean,
    /** performance.now() instant after which the search gives up as unknown. */
    private readonly deadline: number,
    pruning: readonly PrunerFactory<S, I, O>[],
    /** The order the scan tries entries in (passes.ts): how soon a linearization is found, never whether. */
    order: ScanOrder = 'call',
  ) {
    const { model, n, kind, ref } = problem;
    this.list = scanList(problem as KeyProblem<unknown, unknown, unknown>);
    this.head = this.list.head;
    this.next = this.list.next;
    this.expiryOf = new Int32Array(n).fill(-1);
    for (let e = 0; e < n; e++) if (kind[e] === EXPIRE) this.expiryOf[ref[e]] = e;
    this.twinBefore = earlierTwins(problem);
    this.ghostOf = ghostOfEntry(problem);
    this.placed = new Uint16Array(Math.max(1, Math.ceil(n / 16)));
    this.dominated = new DominatedConfigurations(problem, this.ghostOf);
    this.zobrist = zobristKeys(n);
    this.stackEntry = new Int32Array(n);
    this.stackState = new Array<S>(n);
    this.stackForced = new Uint8Array(n);
    this.stackChoice = new Int32Array(n);
    this.stackLineage = relaxed ? new Array<Lineage<S> | null>(n) : [];
    this.state = model.init();
    this.lineage = relaxed ? lineageNode(this.state, model.hashState(this.state), null) : null;
    this.mandatoryLeft = problem.mandatory;
    for (let i = 0; i < n; i++) if (kind[i] === FAULT) this.faultsLeft++;
    this.hashAt = new Array<string | undefined>(n + 1).fill(undefined);
    const pruners: Pruner<S>[] = [];
    for (const factory of pruning) {
      const pruner = factory(problem, this);
      if (pruner !== null) pruners.push(pruner);
    }
    this.pruners = pruners;
    this.bookkeepers = pruners.filter((p): p is Bookkeeper<S> => p.place !== undefined && p.unplace !== undefined);
    const infoOpsEarly = pruners.some((p) => p.infoOpsEarly === true);
    this.passOf = passesOf(problem, infoOpsEarly, order);
    for (let e = 0; e < n; e++) this.left[this.passOf[e]]++;
    this.node = this.next[this.head];
    this.nextClockReading = deadline === Infinity ? Infinity : CLOCK_EVERY;
  }

  run(): SearchOutcome<S> {
    for (const pruner of this.pruners) {
      const stuck = pruner.illegalUpFront?.();
      if (stuck !== undefined) return { ...this.ended('illegal'), explored: 0, stuck };
    }
    for (;;) {
      if (this.mandatoryLeft === 0) {
        // What is left (info ops, expiries, faults) always steps successfully, so it can be
        // appended in order of completion bound: the history is linearizable.
        const rollbacks = this.relaxed ? rollbacksOnStack(this) : undefined;
        return { ...this.ended('ok'), rollbacks, secondExecutions: secondExecutionsOnStack(this) };
      }
      if (this.explored > this.budget) return { ...this.ended('unknown', true), exhausted: 'states' };
      if (this.explored >= this.nextClockReading) {
        this.nextClockReading = this.explored + CLOCK_EVERY;
        if (performance.now() > this.deadline) return { ...this.ended('unknown', true), exhausted: 'time' };
      }
      if (!this.step() && !this.backtrack()) return this.ended('illegal', true);
    }
  }

  /** What every outcome says: the verdict, the work done, and (`stuck`) where the search got stuck. */
  private ended(verdict: SearchOutcome<S>['verdict'], stuck = false): SearchOutcome<S> {
    const { explored, failed, problem } = this;
    const done = { verdict, explored, cacheComparisons: failed.comparisons, enteredByKind: this.enteredByKind() };
    return stuck ? { ...done, stuck: this.stuck.point(problem.model) } : done;
  }

  /** One move of the scan from the node it is at; false when the configuration is stuck. */
  private step(): boolean {
    const { kind, ref } = this.problem;
    const node = this.node;
    if ((node & 1) === 1 && kind[node >> 1] === GHOST) {
      // The ghost's window closed without it taking effect: place it as a no-op. Its taking effect
      // was tried at its call node, so this is the only way left (forced).
      if (!this.enter(node >> 1, this.state, true, 0, null)) return false;
      this.node = this.next[this.head];
    } else if ((node & 1) === 1) {
      const { pass, left } = this;
      if (pass < 2 && (left[2] > 0 || (pass === 0 && left[1] > 0))) {
        this.pass = pass === 0 && left[1] > 0 ? 1 : 2;
        this.node = this.next[this.head];
        return true;
      }
      if (kind[node >> 1] === REAL) this.stuck.note(this, ref[node >> 1]);
      return false;
    } else if (this.passOf[node >> 1] !== this.pass) {
      this.node = this.next[node];
    } else {
      return this.tryEntry(node);
    }
    return true;
  }

  /** The scan is at an entry's call node, in its pass: place the entry if it may go here, else move on. */
  private tryEntry(node: number): boolean {
    const { model, ops, kind, ref, tag, returnAt } = this.problem;
    const { next, head, state } = this;
    const i = node >> 1;
    const entryKind = kind[i];
    if (entryKind === REAL && this.twinBefore[i] !== -1 && twinStandsIn(this, i)) {
      this.node = next[node];
    } else if (entryKind === GHOST && returnAt[i] === Infinity && !isPlaced(this.placed, ref[i])) {
      // An info op's second execution is the op itself again (same input, window and lease tag):
      // it can always be the second of the two to be placed.
      this.node = next[node];
    } else if (entryKind === REAL) {
      const op = ops[ref[i]];
      const step = model.step(state, op.input, op.id);
      const explained = op.outcome !== 'ok' || model.outputMatches(step.output, op.output);
      // An info op that would change nothing here is better left unplaced (see noEffect).
      const placed =
        explained && !(op.outcome !== 'ok' && noEffect(this, step.state)) && this.enter(i, step.state, false, 0, null);
      this.node = placed ? next[head] : next[node];
    } else if (entryKind === GHOST) {
      const op = ops[ref[i]];
      const after = model.step(state, op.input, op.id).state;
      this.node = !noEffect(this, after) && this.enter(i, after, false, 0, null) ? next[head] : next[node];
    } else if (entryKind === EXPIRE) {
      if (!isPlaced(this.placed, ref[i])) {
        // A lease runs out only after the operation that set it took effect.
        this.node = next[node];
      } else if (
        !holdsLease(model, state, tag[i]) &&
        (!this.relaxed || this.faultsLeft === 0 || leaseGoneForGood(this, i))
      ) {
        // A replaced lease never becomes current again (tags are operation ids), so this expiry is
        // a no-op now and forever: placing it first loses no linearization. With a rollback still
        // to come that holds only if no state it could reach holds the lease (leaseGoneForGood).
        if (!this.enter(i, state, true, 0, null)) return false;
        this.node = next[head];
      } else {
        this.node = this.enter(i, model.expire(state, tag[i]), false, 0, null) ? next[head] : next[node];
      }
    } else {
      const alternatives = faultAlternatives(this, i);
      let entered = false;
      for (let c = this.choiceFrom; c < alternatives.length && !entered; c++) {
        entered = this.enter(i, alternatives[c].state, false, c, alternatives[c].lineage);
      }
      this.choiceFrom = 0;
      this.node = entered ? next[head] : next[node];
    }
    return true;
  }

  /** Linearize entry i into newState unless that configuration already failed or a pruner drops it. */
  private enter(i: number, newState: S, forced: boolean, choice: number, nextLineage: Lineage<S> | null): boolean {
    const { kind, ref, returnAt } = this.problem;
    this.push(i, newState, forced, choice, nextLineage);
    // Lowe's memoisation. The bitset's Zobrist hash is a cheap first filter, so the model's state
    // hash is computed only when some failed configuration has the same one.
    if (this.failed.mayHold(this.bitsHash) && this.failed.holds(this.bitsHash, this.placed, this.stateKey()))
      return this.drop();
    const { dominated } = this;
    if (
      dominated.active &&
      dominated.mayHold(this.boundHash) &&
      dominated.holds(this.boundHash, this.placed, this.stateKey(), this.relaxed && this.faultsLeft > 0)
    ) {
      return this.drop();
    }
    if (returnAt[i] === Infinity && returnsToEarlierState(this)) return this.drop();
    const { pruners } = this;
    if (pruners.length > 0) {
      const before = this.stackState[this.sp - 1];
      for (let p = 0; p < pruners.length; p++) {
        const verdict = pruners[p].enter(i, before);
        if (verdict === KEEP) continue;
        // The answer no continuation can explain is where this configuration is stuck: without
        // noting it, a search pruned at its first step would have no stuck point to name.
        if (verdict !== DROP) this.stuck.note(this, ref[verdict]);
        return this.drop();
      }
    }
    this.explored++;
    this.entered[
      kind[i] === REAL ? (returnAt[i] === Infinity ? 1 : 0) : kind[i] === GHOST ? 2 : kind[i] === EXPIRE ? 3 : 4
    ]++;
    this.pass = 0;
    return true;
  }

  private drop(): false {
    this.pop();
    return false;
  }

  private push(i: number, newState: S, forced: boolean, choice: number, nextLineage: Lineage<S> | null): void {
    const { kind, returnAt } = this.problem;
    const sp = this.sp;
    this.flip(i);
    this.stackEntry[sp] = i;
    this.stackState[sp] = this.state;
    this.stackForced[sp] = forced ? 1 : 0;
    this.stackChoice[sp] = choice;
    if (this.relaxed) {
      this.stackLineage[sp] = this.lineage;
      this.lineage = nextLineage ?? lineageAfter(this, i, newState);
    }
    this.sp = sp + 1;
    // A new state at this depth: its hash is the lineage's (relaxed), the one before's (same object), or not known yet.
    this.hashAt[sp + 1] = this.relaxed ? this.lineage!.hash : newState === this.state ? this.hashAt[sp] : undefined;
    this.state = newState;
    this.lift(i);
    const { bookkeepers } = this;
    for (let b = 0; b < bookkeepers.length; b++) bookkeepers[b].place(i);
    this.left[this.passOf[i]]--;
    if (kind[i] === REAL) {
      this.realDepth++;
      if (returnAt[i] !== Infinity) this.mandatoryLeft--;
    } else if (kind[i] === FAULT) {
      this.faultsLeft--;
    }
  }

  private pop(): number {
    const { kind, returnAt } = this.problem;
    const sp = --this.sp;
    const i = this.stackEntry[sp];
    this.flip(i);
    this.unlift(i);
    const { bookkeepers } = this;
    for (let b = 0; b < bookkeepers.length; b++) bookkeepers[b].unplace(i);
    this.left[this.passOf[i]]++;
    this.state = this.stackState[sp];
    if (this.relaxed) this.lineage = this.stackLineage[sp];
    if (kind[i] === REAL) {
      this.realDepth--;
      if (returnAt[i] !== Infinity) this.mandatoryLeft++;
    } else if (kind[i] === FAULT) {
      this.faultsLeft++;
    }
    return i;
  }

  /** Undo entries until one leaves an alternative; false when none does. Every undone configuration failed. */
  private backtrack(): boolean {
    const { kind } = this.problem;
    for (;;) {
      if (this.sp === 0) return false;
      const key = this.stateKey();
      const stored = this.failed.add(this.bitsHash, this.placed, key);
      if (this.dominated.active) this.dominated.add(this.boundHash, stored, key);
      const i = this.pop();
      // A forced entry had no alternative: its configuration failing means the one before failed.
      if (this.stackForced[this.sp] === 1) continue;
      if (kind[i] === FAULT) {
        this.node = 2 * i;
        this.choiceFrom = this.stackChoice[this.sp] + 1;
      } else {
        this.node = this.next[2 * i];
        this.choiceFrom = 0;
      }
      this.pass = this.passOf[i];
      return true;
    }
  }

  private flip(i: number): void {
    this.placed[i >> 4] ^= 1 << (i & 15);
    this.bitsHash ^= this.zobrist[i];
    if (this.problem.returnAt[i] !== Infinity) this.boundHash ^= this.zobrist[i];
  }

  private lift(i: number): void {
    lift(this.list, i);
  }

  private unlift(i: number): void {
    unlift(this.list, i);
  }

  hashAtDepth(depth: number): string {
    return (this.hashAt[depth] ??= this.problem.model.hashState(
      depth === this.sp ? this.state : this.stackState[depth],
    ));
  }

  currentHash(): string {
    return this.hashAtDepth(this.sp);
  }

  /** The current configuration's model part: the state, and in relaxed mode what rollbacks can still reach. */
  private stateKey(): string {
    if (!this.relaxed) return this.currentHash();
    // Rollbacks still to come can reach any state of the lineage, so it is part of the configuration.
    if (this.faultsLeft === 0) return this.lineage!.hash;
    return this.faultsLeft === 1 && !this.problem.guarded ? reachKey(this.lineage!) : this.lineage!.sequence;
  }

  private enteredByKind(): EnteredByKind {
    const [answered, indeterminate, secondExecution, expiry, rollback] = this.entered;
    return { answered, indeterminate, secondExecution, expiry, rollback };
  }
}
