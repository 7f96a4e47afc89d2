/**
 * The holder lookahead, a Pruner for a model whose answers name a holder (a lock's token, a
 * semaphore's holders: Model.requires, grants, holdsIdentity; with holderOf, requiresVacant and
 * mayEnd it also knows when a hold must end, and with answerLeaves and excludes its hold pairs).
 * It drops a configuration from which an answer still to come can no longer be explained, and can
 * show a key illegal before any search. In a file of its own: the search knows it only as a Pruner.
 */
import { liveLeaseTags } from '../../model/leases.ts';
import type { KeyProblem } from '../problem.ts';
import { FAULT } from '../problem.ts';
import type { Configuration, Lineage } from './configuration.ts';
import { isPlaced } from './configuration.ts';
import { holdPairs, pairCannotJoin, type HoldPair } from './hold-pairs.ts';
import { granterBy, holderEntries, type Holders, type Leaving } from './holders.ts';
import type { StuckPoint } from './outcome.ts';
import { DROP, KEEP, type Pruner } from './pruning.ts';

/** Null when the model has no holder lookahead or no answer requires a holder. */
export function holderLookahead<S, I, O>(
  problem: KeyProblem<S, I, O>,
  configuration: Configuration<S>,
): Pruner<S> | null {
  const holders = holderEntries(problem);
  return holders === null ? null : new HolderLookahead(problem, configuration, holders);
}

class HolderLookahead<S, I, O> implements Pruner<S> {
  private readonly placed: Uint16Array;
  private readonly pairs: readonly HoldPair<S>[];
  private readonly faultEntries: readonly number[];

  constructor(
    private readonly problem: KeyProblem<S, I, O>,
    private readonly configuration: Configuration<S>,
    private readonly holders: Holders,
  ) {
    this.placed = configuration.placed;
    this.pairs = holdPairs(problem, holders, configuration.expiryOf);
    const faultEntries: number[] = [];
    for (let e = 0; e < problem.n; e++) if (problem.kind[e] === FAULT) faultEntries.push(e);
    this.faultEntries = faultEntries;
  }

  illegalUpFront(): StuckPoint<S> | undefined {
    const pair = this.pairs.find((p) => p.candidates.length === 0 && (p.other === undefined || p.other.length === 0));
    if (pair === undefined) return undefined;
    // The pair's second answer is where every order gets stuck, in the state the first one leaves.
    const { ref } = this.problem;
    return { prefix: [ref[pair.first]], op: ref[pair.second], state: pair.state, states: [pair.state] };
  }

  place(entry: number): void {
    const holder = this.holders.grants[entry];
    if (holder !== -1) this.holders.grantersLeft[holder]--;
  }

  unplace(entry: number): void {
    const holder = this.holders.grants[entry];
    if (holder !== -1) this.holders.grantersLeft[holder]++;
  }

  enter(): number {
    if (this.pairs.length > 0 && pairCannotJoin(this.problem, this.holders, this.pairs, this.configuration))
      return DROP;
    const blocked = this.unexplainableHolder();
    return blocked === -1 ? KEEP : blocked;
  }

  /**
   * The model's holder lookahead (Model.requires / grants / holdsIdentity): every answer still to
   * come that shows a holder current needs that holder current now, some operation still to
   * place that can make it so, or, while a rollback is to come, a state of the lineage to restore.
   * Without it, a holder's lease run out too early left the polls answered 0 after it to be
   * explained by every order of the other clients' indeterminate acquires and extends, each its
   * own state, before the release that needs the first holder failed (a generated polling history
   * ran past 500,000 states).
   */
  private unexplainableHolder(): number {
    const { model, callAt, returnAt } = this.problem;
    const { answers, needs, identities, leaving } = this.holders;
    const { placed } = this;
    const state = this.configuration.state;
    // The holder that must be gone before an answer requiring none or another (see canEnd).
    const holder = leaving !== null ? model.holderOf!(state) : undefined;
    for (let a = 0; a < answers.length; a++) {
      const e = answers[a];
      if (isPlaced(placed, e)) continue;
      if (model.holdsIdentity!(state, identities[needs[a]])) continue;
      const rollback = this.rollbackBy(returnAt[e]);
      if (
        !granterBy(this.holders, needs[a], returnAt[e], callAt, placed) &&
        (!rollback || !this.onLineage(identities[needs[a]]))
      )
        return e;
      if (holder !== undefined && !rollback && !this.canEnd(leaving!, holder, e)) return e;
    }
    if (holder !== undefined) {
      // The earliest unplaced answer requiring no holder is the one with the least time to end this hold.
      for (const e of leaving!.vacant) {
        if (isPlaced(placed, e)) continue;
        if (!this.rollbackBy(returnAt[e]) && !this.canEnd(leaving!, holder, e)) return e;
        break;
      }
    }
    return -1;
  }

  /** Relaxed mode: can a rollback still to come be placed before an entry whose completion bound is `by`? */
  private rollbackBy(by: number): boolean {
    if (!this.configuration.relaxed || this.configuration.faultsLeft === 0) return false;
    for (const f of this.faultEntries) if (!isPlaced(this.placed, f) && this.problem.callAt[f] <= by) return true;
    return false;
  }

  /**
   * Can the current holder's hold end before answer e must take effect? Only a step of an operation
   * that may end it (Model.mayEnd) or the expiry of a lease the state holds changes a state with a
   * holder, so one of those, still to place and called by e's completion bound, must come first.
   */
  private canEnd(leaving: Leaving, holder: string, e: number): boolean {
    const { model, callAt, returnAt } = this.problem;
    const by = returnAt[e];
    for (const v of leaving.enders.get(holder) ?? []) {
      if (callAt[v] > by) break;
      if (v !== e && !isPlaced(this.placed, v)) return true;
    }
    for (const leaseTag of liveLeaseTags(model, this.configuration.state)) {
      for (const x of leaving.expiriesOfTag.get(leaseTag) ?? [])
        if (!isPlaced(this.placed, x) && callAt[x] <= by) return true;
    }
    return false;
  }

  /** Does some state of the lineage (which a rollback still to come may restore) have this holder? */
  private onLineage(identity: string): boolean {
    const { model } = this.problem;
    for (let l: Lineage<S> | null = this.configuration.lineage; l !== null; l = l.parent)
      if (model.holdsIdentity!(l.state, identity)) return true;
    return false;
  }
}
