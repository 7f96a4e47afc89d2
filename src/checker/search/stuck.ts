/**
 * Where the search could not get past: the deepest such point (the longest linearizable prefix and
 * the operation no order could place after it) and the other states it was stuck in there, which
 * name the invariant broken. Kept apart from the search: this is diagnosis, not search.
 */
import type { Model } from '../../model/types.ts';
import { REAL } from '../problem.ts';
import type { SearchPath } from './configuration.ts';
import type { StuckPoint } from './outcome.ts';

/** Enough alternatives to name the invariant; more would only cost memory on pathological keys. */
const STATES_PER_OP = 8;

export class StuckPoints<S> {
  private best: { prefix: number[]; op: number; state: S } | undefined;
  private bestDepth = -1;
  private readonly states = new Map<number, { states: S[]; hashes: Set<string> }>();

  /** No order gets past op (index into ops) from the path's configuration: keep the deepest such point. */
  note(path: SearchPath<S>, op: number): void {
    if (path.realDepth > this.bestDepth) {
      this.bestDepth = path.realDepth;
      this.best = { prefix: realPrefix(path), op, state: path.state };
    }
    this.remember(path, op);
  }

  point(model: Model<S, unknown, unknown>): StuckPoint<S> | undefined {
    const best = this.best;
    if (best === undefined) return undefined;
    const bestHash = model.hashState(best.state);
    const others = (this.states.get(best.op)?.states ?? []).filter((other) => model.hashState(other) !== bestHash);
    return { ...best, states: [best.state, ...others] };
  }

  private remember(path: SearchPath<S>, op: number): void {
    let seen = this.states.get(op);
    if (seen === undefined) this.states.set(op, (seen = { states: [], hashes: new Set() }));
    if (seen.states.length >= STATES_PER_OP) return;
    const hash = path.currentHash();
    if (seen.hashes.has(hash)) return;
    seen.hashes.add(hash);
    seen.states.push(path.state);
  }
}

function realPrefix<S>(path: SearchPath<S>): number[] {
  const { kind, ref } = path.problem;
  const prefix: number[] = [];
  for (let s = 0; s < path.sp; s++) if (kind[path.stackEntry[s]] === REAL) prefix.push(ref[path.stackEntry[s]]);
  return prefix;
}
