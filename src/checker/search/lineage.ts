/**
 * Relaxed mode (lossy faults): a rollback may restore any state of the current path's lineage, so
 * the search keeps that lineage, keys the cache on what a rollback could still reach, and reports
 * the rollbacks its linearization used. Apart from the search, which only places the alternatives.
 */
import { holdsLease, liveLeaseTags } from '../../model/leases.ts';
import { FAULT, GHOST, REAL, protects } from '../problem.ts';
import type { Lineage, SearchPath } from './configuration.ts';
import { isPlaced } from './configuration.ts';
import type { Rollback } from './outcome.ts';

/**
 * The configuration's model part when one unguarded rollback is left: the current state and the
 * set of states the lineage holds. That rollback may restore any of them (or one with its lease run
 * out, which depends on the state and the placed expiries alone), nothing stops it earlier (no
 * guards), and after it no lineage is kept: the order the states came in changes nothing. Keyed
 * by the sequence instead, two detours of info acquires (each its own state, its lease tag) made in
 * either order were two configurations, and a dozen of them every order: a polling lock key ran
 * out of budget so.
 */
export function reachKey<S>(lineage: Lineage<S>): string {
  if (lineage.reach !== undefined) return lineage.reach;
  const hashes = new Set<string>();
  for (let l: Lineage<S> | null = lineage; l !== null; l = l.parent) hashes.add(l.hash);
  lineage.reach = `${lineage.hash}\u0005${[...hashes].sort().join('\u0002')}`;
  return lineage.reach;
}

export function lineageNode<S>(
  state: S,
  hash: string,
  parent: Lineage<S> | null,
  guard = 0,
  madeByGhostOf = -1,
): Lineage<S> {
  // A guard changes what a rollback may reach, and who made the state whether its operation can
  // guard it later, so both are part of the sequence the cache keys on.
  const own = `${hash}${guard > 0 ? `\u0003${guard}` : ''}${madeByGhostOf >= 0 ? `\u0004${madeByGhostOf}` : ''}`;
  return {
    state,
    hash,
    parent,
    guard,
    madeByGhostOf,
    sequence: parent === null ? own : `${parent.sequence}\u0002${own}`,
  };
}

export interface Alternative<S> {
  readonly state: S;
  readonly lineage: Lineage<S>;
}

/** The states fault entry `entry` may leave: the current one, or a rollback to one the lineage reaches. */
export function faultAlternatives<S>(path: SearchPath<S>, entry: number): Alternative<S>[] {
  const { model, faults, ref, expiryEntryOfTag } = path.problem;
  const fault = faults[ref[entry]];
  const current = path.lineage!;
  const alternatives: Alternative<S>[] = [{ state: path.state, lineage: current }];
  const seen = new Set<string>([current.hash]);
  for (let l: Lineage<S> | null = current; l !== null; l = l.parent) {
    if (!seen.has(l.hash)) {
      seen.add(l.hash);
      alternatives.push({ state: l.state, lineage: l });
    }
    // The promoted replica keeps the lease's absolute deadline: if the search already let that
    // lease run out, the rolled-back record may be gone too.
    for (const leaseTag of liveLeaseTags(model, l.state)) {
      const expiry = expiryEntryOfTag.get(leaseTag);
      if (expiry === undefined || !isPlaced(path.placed, expiry)) continue;
      const expired = model.expire(l.state, leaseTag);
      const hash = model.hashState(expired);
      if (!seen.has(hash)) {
        seen.add(hash);
        alternatives.push({ state: expired, lineage: lineageNode(expired, hash, l) });
      }
    }
    // Going further back would discard the write that made l, which WAIT says this fault cannot lose.
    if (protects(l.guard, fault)) break;
  }
  return alternatives;
}

/**
 * Relaxed mode, a rollback still to come: can lease tag[x] never be live again on any continuation?
 * Then expiry x is a no-op now and forever (it only matters to a rollback reaching a state that
 * holds its lease, and there is none), so placing it first loses nothing, as in strict mode.
 * A lease becomes live only by a step of the operation that sets it (its tag is that operation's
 * id) or of that operation's second execution, or by a rollback to a state of the lineage that
 * holds it. So: both executions placed (or the operation has no second one), and no state of the
 * lineage holds it. Without this, in a lossy re-check every subset of the expiries of a polling
 * client's refused acquires (leases that never existed) was its own configuration: 499,937 of
 * 500,000 states on one generated history.
 */
export function leaseGoneForGood<S>(path: SearchPath<S>, x: number): boolean {
  const { model, kind, ref, tag } = path.problem;
  const setter = ref[x];
  const other = kind[setter] === GHOST ? ref[setter] : path.ghostOf[setter];
  if (other !== -1 && !isPlaced(path.placed, other)) return false;
  for (let l: Lineage<S> | null = path.lineage; l !== null; l = l.parent)
    if (holdsLease(model, l.state, tag[x])) return false;
  return true;
}

/** Ok in relaxed mode: the rollbacks the linearization on the stack used. */
export function rollbacksOnStack<S>(path: SearchPath<S>): Rollback<S>[] {
  const { kind, ref } = path.problem;
  const { sp, stackEntry, stackChoice, stackLineage, stackState } = path;
  const rollbacks: Rollback<S>[] = [];
  const lineageAfter = (s: number): Lineage<S> => (s + 1 < sp ? stackLineage[s + 1]! : path.lineage!);
  const chain = (l: Lineage<S> | null): Set<Lineage<S>> => {
    const nodes = new Set<Lineage<S>>();
    for (; l !== null; l = l.parent) nodes.add(l);
    return nodes;
  };
  for (let s = 0; s < sp; s++) {
    if (kind[stackEntry[s]] === FAULT && stackChoice[s] > 0) {
      // Discarded: the operations whose state was on the live branch just before the rollback and is not after it.
      const before = chain(stackLineage[s]!);
      const after = chain(lineageAfter(s));
      const discarded: number[] = [];
      for (let t = 0; t < s; t++) {
        const made = lineageAfter(t);
        const k = kind[stackEntry[t]];
        const op = ref[stackEntry[t]];
        // An operation's second execution discarded is its effect discarded too.
        if (
          (k === REAL || k === GHOST) &&
          stackLineage[t] !== made &&
          before.has(made) &&
          !after.has(made) &&
          !discarded.includes(op)
        )
          discarded.push(op);
      }
      rollbacks.push({
        fault: ref[stackEntry[s]],
        from: stackState[s],
        to: s + 1 < sp ? stackState[s + 1] : path.state,
        discarded,
      });
    }
  }
  return rollbacks;
}

/** The lineage after entry `entry` left `newState` (from the current state and lineage of `path`). */
export function lineageAfter<S>(path: SearchPath<S>, entry: number, newState: S): Lineage<S> {
  const { model, kind, ref, acknowledged, guarded } = path.problem;
  const lineage = path.lineage!;
  const hash = model.hashState(newState);
  // Only an operation that changed the state guards it: WAIT covers the writes of its own
  // connection, and the replication stream is ordered, so a replica holding this write holds
  // every state before it; an operation that wrote nothing proves nothing about what it read.
  // One exception: the answered execution of an operation whose first, resent execution made
  // this very state wrote it again, and WAIT acknowledged that write.
  const guard = acknowledged[entry];
  const same = lineage.hash === hash;
  const reaffirms = same && guard > lineage.guard && kind[entry] === REAL && lineage.madeByGhostOf === ref[entry];
  const ghostOf = kind[entry] === GHOST && guarded ? ref[entry] : -1;
  return same && !reaffirms ? lineage : lineageNode(newState, hash, lineage, guard, ghostOf);
}
