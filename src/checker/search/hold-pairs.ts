/**
 * Hold pairs, the holder lookahead's proofs that no order joins two answers: one leaving holder H,
 * then one requiring H's hold gone with nothing placeable between them that can end it. Built once
 * per search from the model's hooks (Model.answerLeaves, excludes), checked at each configuration
 * (pairCannotJoin), and the ground for the illegal verdict the holder lookahead gives before any search.
 */
import { liveLeaseTags } from '../../model/leases.ts';
import type { KeyProblem } from '../problem.ts';
import { FAULT, REAL } from '../problem.ts';
import type { Configuration } from './configuration.ts';
import { allPlaced, isPlaced } from './configuration.ts';
import { granterBy, type Holders } from './holders.ts';

/**
 * An answer that leaves holder H whatever came before it (Model.answerLeaves), and the earliest
 * answer invoked after it completed that requires no holder or another: H's hold must end between
 * them. Only an operation that may end it (Model.mayEnd), the expiry of a lease H holds then (the
 * first's own, or one such an operation sets) or a rollback can end it, and each must be placed
 * after the first (its completion bound not before the first's invocation) and before the second
 * (invoked by the second's completion bound). Those are the pair's candidates; once every one is
 * placed while the first is not, no completion exists, whatever else was placed: without this, a
 * search tried every order of the operations before such a pair (past 500,000 states on a key of polling clients).
 * The second answer with the earliest completion bound has the fewest candidates, so one per first.
 */
export interface HoldPair<S> {
  readonly first: number;
  readonly second: number;
  /** The state the first leaves. */
  readonly state: S;
  readonly candidates: Int32Array;
  /** The holder (index into Holders.identities) the first answer requires current, or -1. */
  readonly needs: number;
  /**
   * Answers whose windows overlap, so either may come first: the candidates for the second one
   * first (what could end its hold before the first). Such a pair cannot join once both answers are
   * unplaced and both lists are placed already.
   */
  readonly other?: Int32Array;
}

/** The key's hold pairs; none unless the model says what an answer leaves (Model.answerLeaves) and what ends a hold. */
export function holdPairs<S, I, O>(
  problem: KeyProblem<S, I, O>,
  holders: Holders,
  expiryOf: Int32Array,
): HoldPair<S>[] {
  const { model, n, kind, ref, ops, callAt, returnAt } = problem;
  const { leaving, answers, needs, identities } = holders;
  if (leaving === null || model.answerLeaves === undefined) return [];
  const faults: number[] = [];
  for (let e = 0; e < n; e++) if (kind[e] === FAULT) faults.push(e);
  const needOf = new Map<number, number>(answers.map((e, a) => [e, needs[a]]));
  const vacant = new Set(leaving.vacant);
  /** Answer -> the holder it shows was not current (Model.excludes). */
  const excluded = new Map<number, string>();
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] === Infinity || ops[ref[e]].outcome !== 'ok') continue;
    const not = model.excludes?.(ops[ref[e]].input, ops[ref[e]].output);
    if (not !== undefined) excluded.set(e, not);
  }
  /** Does answer e require the hold of `holder` gone: no holder, another, or anyone but it? */
  const requiresOther = (e: number, holder: string): boolean =>
    vacant.has(e) || (needOf.has(e) && identities[needOf.get(e)!] !== holder) || excluded.get(e) === holder;
  /** What could end the hold `first` leaves after it and before `second` (see HoldPair). */
  const candidatesBetween = (first: number, second: number, left: S, holder: string): Int32Array => {
    const by = returnAt[second];
    const between = (e: number): boolean =>
      e !== first && e !== second && !(returnAt[e] < callAt[first]) && callAt[e] <= by;
    const candidates: number[] = [];
    for (const leaseTag of liveLeaseTags(model, left)) {
      for (const x of leaving.expiriesOfTag.get(leaseTag) ?? []) if (between(x)) candidates.push(x);
    }
    for (const v of leaving.enders.get(holder) ?? []) {
      if (!between(v)) continue;
      // One that sets a positive lease ends the hold only by that lease running out: its expiry is
      // the candidate. One that sets none, or one whose window opens by its own call, may end it at once.
      if (expiryOf[v] === -1 || callAt[expiryOf[v]] <= callAt[v]) candidates.push(v);
      else if (between(expiryOf[v])) candidates.push(expiryOf[v]);
    }
    for (const f of faults) if (between(f)) candidates.push(f);
    return Int32Array.from(candidates);
  };
  const leavers: { e: number; left: S; holder: string }[] = [];
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] === Infinity || ops[ref[e]].outcome !== 'ok') continue;
    const op = ops[ref[e]];
    const left = model.answerLeaves(op.input, op.output, op.id);
    const holder = left === undefined ? undefined : model.holderOf!(left);
    if (holder !== undefined) leavers.push({ e, left: left!, holder });
  }
  const pairs: HoldPair<S>[] = [];
  for (const { e: first, left, holder } of leavers) {
    let second = -1;
    const consider = (e: number) => {
      if (returnAt[first] < callAt[e] && (second === -1 || returnAt[e] < returnAt[second])) second = e;
    };
    for (const e of leaving.vacant) consider(e);
    for (let a = 0; a < answers.length; a++) if (identities[needs[a]] !== holder) consider(answers[a]);
    for (const [e, not] of excluded) if (not === holder) consider(e);
    if (second === -1) continue;
    pairs.push({
      first,
      second,
      state: left,
      candidates: candidatesBetween(first, second, left, holder),
      needs: needOf.get(first) ?? -1,
    });
  }
  // Two such answers whose windows overlap, each requiring the other's hold gone: whichever comes
  // first, the other needs a candidate between them (two acquires answered 1 while neither lease
  // could run out in time: lossy seed 10992's strict search, 73,805 states).
  for (let x = 0; x < leavers.length; x++) {
    for (let y = x + 1; y < leavers.length; y++) {
      const a = leavers[x];
      const b = leavers[y];
      if (returnAt[a.e] < callAt[b.e] || returnAt[b.e] < callAt[a.e]) continue;
      if (!requiresOther(b.e, a.holder) || !requiresOther(a.e, b.holder)) continue;
      const other = candidatesBetween(b.e, a.e, b.left, b.holder);
      pairs.push({
        first: a.e,
        second: b.e,
        state: a.left,
        candidates: candidatesBetween(a.e, b.e, a.left, a.holder),
        needs: -1,
        other,
      });
    }
  }
  return pairs;
}

/**
 * Has some pair (HoldPair) its first answer still to place and every candidate placed already?
 * Or only one rollback left, the pair's only candidate, while the first answer needs a holder
 * that is not current and that no operation called by its completion bound can make current: the
 * one rollback would have to come before the first, to restore that holder, and after it, to end
 * the hold (lossy seed 11478: every placement of the second executions around such a pair).
 */
export function pairCannotJoin<S>(
  problem: KeyProblem<S, unknown, unknown>,
  holders: Holders,
  pairs: readonly HoldPair<S>[],
  configuration: Configuration<S>,
): boolean {
  const { model, kind, callAt, returnAt } = problem;
  const { placed, state, faultsLeft } = configuration;
  for (const { first, second, candidates, needs, other } of pairs) {
    if (isPlaced(placed, first)) continue;
    if (other !== undefined) {
      if (!isPlaced(placed, second) && allPlaced(placed, candidates) && allPlaced(placed, other)) return true;
      continue;
    }
    let open = 0;
    let onlyRollbacks = true;
    for (let c = 0; c < candidates.length; c++) {
      if (isPlaced(placed, candidates[c])) continue;
      open++;
      if (kind[candidates[c]] !== FAULT) onlyRollbacks = false;
    }
    if (open === 0) return true;
    if (onlyRollbacks && faultsLeft === 1 && needs !== -1 && !model.holdsIdentity!(state, holders.identities[needs])) {
      if (!granterBy(holders, needs, returnAt[first], callAt, placed)) return true;
    }
  }
  return false;
}
