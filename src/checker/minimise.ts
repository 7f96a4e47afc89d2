/**
 * Delta debugging of one illegal key, budgeted in search states. Every probe is a strict search,
 * so whatever is returned is illegal by construction; a probe that runs out of budget keeps the
 * operation it was trying to drop.
 *
 * The test a sub-history must pass: it breaks the same invariant, *because of the unexplained
 * operation* (without it the rest is legal). Plain "still illegal" drifts to other violations:
 * dropping a register turns its owner's complete into a new, uninteresting one. When the whole key
 * cannot pass that test (it holds other, independent violations too), the test is only "breaks
 * the same invariant".
 */
import type { OpRecord } from '../history/types.ts';

/** Runs the strict search on a candidate sub-history with at most `budget` states. */
export type Probe<I, O> = (
  ops: readonly OpRecord<I, O>[],
  budget: number,
) => {
  readonly verdict: 'ok' | 'illegal' | 'unknown';
  readonly explored: number;
  /** The invariant an illegal sub-history breaks. */
  readonly invariant?: string;
};

export interface MinimiseRequest<I, O> {
  /** The key's operations (ok and info), illegal as a whole. */
  readonly ops: readonly OpRecord<I, O>[];
  /** The operation no order could explain. */
  readonly unexplained: OpRecord<I, O>;
  /** The operations of the longest linearizable prefix the search found. */
  readonly prefix: readonly OpRecord<I, O>[];
  readonly invariant: string;
  readonly probe: Probe<I, O>;
  readonly budget: number;
}

export interface Minimised<I, O> {
  readonly ops: readonly OpRecord<I, O>[];
  readonly explored: number;
}

export function minimiseIllegal<I, O>(request: MinimiseRequest<I, O>): Minimised<I, O> {
  const { ops, unexplained, prefix, invariant, probe, budget } = request;
  let explored = 0;
  const run = (candidate: readonly OpRecord<I, O>[]): ReturnType<Probe<I, O>> | undefined => {
    const left = budget - explored;
    if (left <= 0) return undefined;
    const result = probe(candidate, left);
    explored += result.explored;
    return result;
  };
  const breaksInvariant = (candidate: readonly OpRecord<I, O>[]): boolean => {
    const result = run(candidate);
    return result?.verdict === 'illegal' && result.invariant === invariant;
  };
  const becauseOfUnexplained = (candidate: readonly OpRecord<I, O>[]): boolean =>
    breaksInvariant(candidate) && run(candidate.filter((op) => op !== unexplained))?.verdict === 'ok';

  // Smallest first: the unexplained op alone, the prefix it could not follow, everything invoked
  // before it completed, the whole key. The first that passes is where ddmin starts.
  const inOrder = (keep: (op: OpRecord<I, O>) => boolean) => ops.filter((op) => op === unexplained || keep(op));
  const prefixIds = new Set(prefix.map((op) => op.id));
  const starts = [
    [unexplained],
    inOrder((op) => prefixIds.has(op.id)),
    inOrder((op) => unexplained.outcome !== 'ok' || op.invokedAt <= unexplained.completedAt),
    [...ops],
  ].filter((start, i, all) => all.findIndex((other) => other.length === start.length) === i);
  for (const start of starts) {
    if (becauseOfUnexplained(start))
      return { ops: ddmin(start, unexplained, becauseOfUnexplained, () => explored < budget), explored };
  }
  return { ops: ddmin([...ops], unexplained, breaksInvariant, () => explored < budget), explored };
}

/**
 * Zeller's ddmin: remove chunks, halving their size when none can go. Budget allowing, it ends
 * after single operations were each tried and none could go: a 1-minimal sub-history.
 */
function ddmin<T>(ops: T[], keep: T, passes: (candidate: T[]) => boolean, mayContinue: () => boolean): T[] {
  let current = ops;
  let chunks = 2;
  while (current.length > 1 && mayContinue()) {
    const size = Math.ceil(current.length / chunks);
    let reduced = false;
    for (let start = 0; start < current.length && !reduced; start += size) {
      const candidate = current.filter((op, i) => op === keep || i < start || i >= start + size);
      if (candidate.length < current.length && passes(candidate)) {
        current = candidate;
        chunks = Math.max(chunks - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (size === 1) break;
    chunks = Math.min(current.length, chunks * 2);
  }
  return current;
}
