/**
 * Duplicate effects over a job: the operations each judged run's checker found only a second
 * execution explains (src/checker/duplicates.ts), per operation, and the findings the pattern
 * declares for them (Pattern.duplicates). A finding is reported in the result, the certificate and
 * the summary; it withholds the certificate only when the pattern marks it a violation. Pure.
 */
import type { DuplicateEffects } from '../checker/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { operationNames } from './evidence.ts';

/** result.json's `duplicateEffects`: per operation, how many ran twice, and which (run, op id). */
export type DuplicateTally = Readonly<
  Record<string, { readonly count: number; readonly ops: readonly { readonly run: number; readonly id: number }[] }>
>;

export interface DuplicateRun {
  readonly run: number;
  readonly effects: DuplicateEffects;
}

/** Every operation of the pattern is listed, 0 included, so an absence reads as measured. */
export function tallyDuplicates(pattern: AnyPattern, runs: readonly DuplicateRun[]): DuplicateTally {
  const tally: Record<string, { count: number; ops: { run: number; id: number }[] }> = {};
  for (const op of operationNames(pattern)) tally[op] = { count: 0, ops: [] };
  for (const { run, effects } of runs) {
    for (const [op, ids] of Object.entries(effects)) {
      const entry = (tally[op] ??= { count: 0, ops: [] });
      entry.count += ids.length;
      for (const id of ids) entry.ops.push({ run, id });
    }
  }
  return tally;
}

/** The certificate's `duplicateEffects`: counts only (op ids belong to their run's history). */
export const duplicateCounts = (tally: DuplicateTally): Record<string, number> =>
  Object.fromEntries(Object.entries(tally).map(([op, t]) => [op, t.count]));

export interface DuplicateFinding {
  /** `duplicate-hit: 2 hits ran twice (run 3: op 41; run 7: op 12): the client was charged twice ...` */
  readonly text: string;
  /** The pattern marks it a violation: it withholds the certificate. */
  readonly violation: boolean;
}

/** One finding per operation the pattern declares a duplicate of to be one, when it happened. */
export function duplicateFindings(pattern: AnyPattern, tally: DuplicateTally): DuplicateFinding[] {
  const declared = pattern.duplicates ?? {};
  const findings: DuplicateFinding[] = [];
  for (const [op, t] of Object.entries(tally)) {
    const declaration = declared[op];
    if (!declaration?.finding || t.count === 0) continue;
    findings.push({
      text: `${declaration.finding}: ${t.count} ${op}${t.count === 1 ? '' : 's'} only a second execution explains (${where(t.ops)}): ${declaration.consequence}`,
      violation: declaration.violation === true,
    });
  }
  return findings;
}

/** `run 3: ops 41, 44; run 7: op 12`, the first few runs only. */
function where(ops: readonly { run: number; id: number }[]): string {
  const byRun = new Map<number, number[]>();
  for (const { run, id } of ops) byRun.set(run, [...(byRun.get(run) ?? []), id]);
  const shown = [...byRun]
    .slice(0, 4)
    .map(([run, ids]) => `run ${run}: op${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`);
  return byRun.size > 4 ? `${shown.join('; ')}; ${byRun.size - 4} more runs` : shown.join('; ');
}

/** The summary's line: `duplicate effects (only a second execution explains them): hit 2, ...`. */
export function duplicatesLine(tally: DuplicateTally): string {
  const counts = Object.entries(tally)
    .map(([op, t]) => `${op} ${t.count}`)
    .join(', ');
  return `  duplicate effects (operations only a second execution explains): ${counts || 'none'}`;
}
