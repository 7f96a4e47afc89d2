/**
 * Two keys of the synthetic kv history (bench/porcupine/synthetic.ts, 100,000 ops over 1,000 keys,
 * seed 1) that ran out of the 500,000-state budget. Every order of a key's appends is its own
 * state, so the failed-configuration cache merges nothing; what decides them is the kv lookahead
 * (a state that a get still to come can no longer observe is dropped).
 * - k8: four info appends, three of which never took effect. Deferring info ops to where the
 *   bounded pass was stuck took 928,111 states; in call order 102,859; with the lookahead 100.
 * - k134: a dozen overlapping appends between two gets and no info op in the way: 1,811,385
 *   states without the lookahead, 109 with it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { readHistory } from '../../../src/ingest/index.ts';
import { kv } from '../../../src/model/index.ts';
import { syntheticKvHistory } from '../../../bench/porcupine/synthetic.ts';
import { keyVerdict } from './support/ops.ts';

function fixture(name: string) {
  const file = new URL(`./fixtures/${name}`, import.meta.url);
  return readHistory(file.pathname, readFileSync(file, 'utf8'), 'porcupine-kv', 'kv').history;
}

describe('a kv key with info appends that never took effect (synthetic history, key k8)', () => {
  const history = fixture('kv-synthetic-k8.txt');

  it('reads as 100 operations, four of them info appends', () => {
    expect(history.ops).toHaveLength(100);
    expect(history.ops.filter((o) => o.outcome === 'info').map((o) => o.input)).toEqual([
      { op: 'append', value: 'a25.' },
      { op: 'append', value: 'a30.' },
      { op: 'append', value: 'a65.' },
      { op: 'append', value: 'a81.' },
    ]);
  });

  it('is decided ok in under 1,000 states', () => {
    const result = check(history, kv);
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, 'k8').statesExplored).toBeLessThan(1_000);
  });
});

describe('a kv key with a dozen overlapping appends between two gets (synthetic history, key k134)', () => {
  const history = fixture('kv-synthetic-k134.txt');

  it('is decided ok in under 1,000 states', () => {
    expect(history.ops).toHaveLength(100);
    const result = check(history, kv);
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, 'k134').statesExplored).toBeLessThan(1_000);
  });

  it('with one get answering a different order of those appends, is illegal', () => {
    const swapped = 'p134.8a9.a10.a11.a12.a13.a14.a15.a16.a17.a19.a18.';
    const ops = history.ops.map((o) =>
      o.output === 'p134.8a9.a10.a11.a12.a13.a14.a15.a16.a17.a18.a19.' ? { ...o, output: swapped } : o,
    );
    expect(ops.filter((o) => o.output === swapped)).toHaveLength(1);
    expect(check({ ...history, ops }, kv, { minimise: false }).verdict).toBe('illegal');
  });
});

describe('one kv key of 10,000 operations (synthetic history, seed 1)', () => {
  // Deferred info ops ran out of the 500,000-state budget here even with the lookahead.
  it('is decided ok in under 20,000 states', () => {
    const history = syntheticKvHistory(10_000, 1, 1);
    expect(history.ops.filter((o) => o.outcome === 'info').length).toBeGreaterThan(100);
    const result = check(history, kv);
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, 'k0').statesExplored).toBeLessThan(20_000);
  });
});
