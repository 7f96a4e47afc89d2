/**
 * The failed-configuration cache is keyed by (linearized set, then state): configurations with the
 * same set in different states (every order of appends gives another log) must not pile into one
 * bucket that each lookup walks, comparing states one by one (Porcupine's kv histories spent most of their time so).
 */
import { describe, expect, it } from 'vitest';
import { buildKeyProblem } from '../../../src/checker/problem.ts';
import { searchKey } from '../../../src/checker/search.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import { appendLog } from './support/append-log.ts';
import type { AppendInput, AppendOutput } from './support/append-log.ts';
import { op } from './support/ops.ts';

/** Eight appends all in flight together, then a read that sees an order no linearization gives. */
function concurrentAppends(read: string): OpRecord<AppendInput, AppendOutput>[] {
  const letters = [...'abcdefgh'];
  return [
    ...letters.map((letter, i) => op<AppendInput, AppendOutput>(i, { op: 'append', letter }, 0, 100, { output: 'ok' })),
    op<AppendInput, AppendOutput>(9, { op: 'read' }, 200, 210, { output: read }),
  ];
}

describe('the failed-configuration cache', () => {
  it('compares about one set per lookup however many states a set failed in', () => {
    // Illegal (a letter no append wrote), so the search exhausts every order of the eight appends:
    // 109,600 configurations, a set of k appends failing in up to k! states.
    const outcome = searchKey(buildKeyProblem(appendLog, concurrentAppends('abcdefgz'), 0), 1_000_000, false);
    expect(outcome.verdict).toBe('illegal');
    expect(outcome.explored).toBeGreaterThan(100_000);
    // One bucket per set would compare every failed state of the set: millions here.
    expect(outcome.cacheComparisons).toBeLessThan(outcome.explored);
  });

  it('still finds the one order a read allows', () => {
    const outcome = searchKey(buildKeyProblem(appendLog, concurrentAppends('hgfedcba'), 0), 1_000_000, false);
    expect(outcome.verdict).toBe('ok');
  });
});
