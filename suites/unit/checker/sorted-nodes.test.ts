// The scan list's order (problem.ts sortedNodes): a hand-written sort, so it is held against the
// order it replaced, TypedArray.sort by (time, call before return, node), on nearly sorted windows
// (the insertion sort's case) and on scattered ones (past its moves, the merge sort's).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type KeyProblem, sortedNodes } from '../../../src/checker/problem.ts';

function problemOf(windows: readonly (readonly [number, number])[]): KeyProblem<unknown, unknown, unknown> {
  const n = windows.length;
  return {
    n,
    callAt: Float64Array.from(windows, ([from]) => from),
    returnAt: Float64Array.from(windows, ([from, length]) => from + length),
  } as unknown as KeyProblem<unknown, unknown, unknown>;
}

function expectedOrder(problem: KeyProblem<unknown, unknown, unknown>): number[] {
  const time = (node: number) => (node & 1 ? problem.returnAt[node >> 1] : problem.callAt[node >> 1]);
  return Array.from({ length: 2 * problem.n }, (_, i) => i).sort(
    (a, b) => time(a) - time(b) || (a & 1) - (b & 1) || a - b,
  );
}

// Small integer times, so that ties (a call and a return at one instant, two calls at one) are common.
const window = (spread: number) =>
  fc.tuple(fc.integer({ min: 0, max: spread }), fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(Infinity)));

describe('sortedNodes', () => {
  it('orders nearly sorted windows as the comparator sort does', () => {
    fc.assert(
      fc.property(fc.array(window(3), { maxLength: 300 }), (steps) => {
        // Each window starts a little after the one before: calls in invocation order.
        let at = 0;
        const windows = steps.map(([step, length]) => [(at += step), length] as const);
        const problem = problemOf(windows);
        expect([...sortedNodes(problem)]).toEqual(expectedOrder(problem));
      }),
    );
  });

  it('orders scattered windows (past the insertion sort, merged) as the comparator sort does', () => {
    fc.assert(
      fc.property(fc.array(window(1_000), { minLength: 0, maxLength: 400 }), (windows) => {
        const problem = problemOf(windows);
        expect([...sortedNodes(problem)]).toEqual(expectedOrder(problem));
      }),
    );
  });

  it('hands a reversed list to the merge sort and still orders it', () => {
    const windows = Array.from({ length: 500 }, (_, i) => [10_000 - 10 * i, 3] as const);
    const problem = problemOf(windows);
    expect([...sortedNodes(problem)]).toEqual(expectedOrder(problem));
  });
});
