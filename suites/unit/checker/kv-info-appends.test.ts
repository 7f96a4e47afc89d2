/**
 * Info ops are tried in call order, not deferred to where the bounded operations are stuck. Key k8 of
 * the synthetic kv history (bench/porcupine/synthetic.ts, 100,000 ops, seed 1) holds 100 operations
 * and four info appends, three of which never took effect; every order of its concurrent appends is
 * its own state. With the info ops deferred it ran out of the 500,000-state budget (928,111 states
 * to decide it); in call order it is decided in about 103,000.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { readHistory } from '../../../src/ingest/index.ts';
import { kv } from '../../../src/model/index.ts';
import { keyVerdict } from './support/ops.ts';

const file = new URL('./fixtures/kv-synthetic-k8.log', import.meta.url);
const { history } = readHistory(file.pathname, readFileSync(file, 'utf8'), 'porcupine-kv', 'kv');

describe('a kv key with info appends that never took effect (synthetic history, key k8)', () => {
  it('reads as 100 operations, four of them info appends', () => {
    expect(history.ops).toHaveLength(100);
    expect(history.ops.filter((o) => o.outcome === 'info').map((o) => o.input)).toEqual([
      { op: 'append', value: 'a25.' },
      { op: 'append', value: 'a30.' },
      { op: 'append', value: 'a65.' },
      { op: 'append', value: 'a81.' },
    ]);
  });

  it('is decided ok within the default state budget, in under 150,000 states', () => {
    const result = check(history, kv);
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, 'k8').statesExplored).toBeLessThan(150_000);
  });
});
