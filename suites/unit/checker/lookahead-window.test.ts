/**
 * The lookahead's window holds only answers that read the state (Model.observes: kv's gets). An
 * answer every state allows (an append's ok) would take a place in it for nothing, and enough of
 * them push the get that decides the order out of the window, so the search tries every order of
 * the appends before it (Porcupine's kv c50-ok took 12,046 states so, 5,774 without).
 */
import { describe, expect, it } from 'vitest';
import { buildKeyProblem } from '../../../src/checker/problem.ts';
import { searchKey } from '../../../src/checker/search.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import { kv, type KvInput } from '../../../src/model/kv.ts';
import type { Model } from '../../../src/model/types.ts';
import { op } from './support/ops.ts';

/**
 * Eight appends in flight together, sixteen more each acknowledged before the next (all before the
 * get, whose interval overlaps them all, so none bounds it), then a get that saw the eight in one
 * order: the one linearization. Any other order of the eight is a state the get cannot observe.
 */
function history(): OpRecord<KvInput, unknown>[] {
  const together = [...'abcdefgh'].map((letter, i) =>
    op<KvInput, unknown>(i, { op: 'append', value: letter }, 0, 100, { output: 'ok' }, 'k'),
  );
  const after = Array.from({ length: 16 }, (_, i) =>
    op<KvInput, unknown>(20, { op: 'append', value: `${i % 10}` }, 200 + 10 * i, 205 + 10 * i, { output: 'ok' }, 'k'),
  );
  const seen = 'hgfedcba' + after.map((a) => (a.input as { value: string }).value).join('');
  return [...together, ...after, op<KvInput, unknown>(30, { op: 'get' }, 0, 500, { output: seen }, 'k')];
}

const explored = (model: Model<any, KvInput, any>) => {
  const outcome = searchKey(buildKeyProblem(model, history(), 0), 1_000_000, false);
  expect(outcome.verdict).toBe('ok');
  return outcome.explored;
};

describe('the lookahead window', () => {
  it('holds the get that decides the order, however many appends answer first', () => {
    const withObserves = explored(kv);
    // The same model, every answer taking a place in the window: the get falls outside it.
    const everyAnswer = explored({ ...kv, observes: undefined });
    // Measured: 25 and 109,617 (every order of the eight before the get enters the window).
    expect(withObserves).toBeLessThan(200);
    expect(everyAnswer).toBeGreaterThan(10 * withObserves);
  });
});
