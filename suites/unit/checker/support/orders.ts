/**
 * One key searched in one scan order alone (src/checker/search/passes.ts), strict or with lossy
 * faults, with the spec's own pruning: so a test can hold every order to the oracle's verdict,
 * not only the first (check() tries the next order only on a key the first leaves undecided).
 */
import { overlaps } from '../../../../src/history/overlap.ts';
import type { FaultRecord, OpRecord } from '../../../../src/history/types.ts';
import { buildKeyProblem } from '../../../../src/checker/problem.ts';
import { MODEL_PRUNING, searchKey } from '../../../../src/checker/search.ts';
import { SCAN_ORDERS, type ScanOrder } from '../../../../src/checker/search/passes.ts';
import { specOf, type Checkable } from '../../../../src/checker/spec.ts';

export function verdictsByOrder<S, I, O>(
  checkable: Checkable<S, I, O>,
  ops: readonly OpRecord<I, O>[],
  eps: number,
  cuts: readonly FaultRecord[],
  lossy: readonly FaultRecord[] = [],
): Record<ScanOrder, 'ok' | 'illegal' | 'unknown'> {
  const spec = specOf(checkable);
  // As check() prepares them: a refusal overlapping a cut may have run; any other refusal did not.
  const prepared = ops.flatMap((op) =>
    op.outcome !== 'fail'
      ? [op]
      : cuts.some((c) => overlaps(c, op.invokedAt, op.completedAt))
        ? [{ ...op, outcome: 'info' as const }]
        : [],
  );
  const verdictIn = (order: ScanOrder) =>
    searchKey(
      buildKeyProblem(spec.model, prepared, eps, lossy, cuts),
      1_000_000,
      lossy.length > 0,
      Infinity,
      spec.pruning ?? MODEL_PRUNING,
      [order],
    ).verdict;
  return Object.fromEntries(SCAN_ORDERS.map((order) => [order, verdictIn(order)])) as Record<
    ScanOrder,
    'ok' | 'illegal' | 'unknown'
  >;
}
