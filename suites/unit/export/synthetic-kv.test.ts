/** The bench's synthetic kv history: deterministic, of the promised shape, and legal by construction. */
import { describe, expect, it } from 'vitest';
import { syntheticKvHistory, syntheticKvLog } from '../../../bench/porcupine/synthetic.ts';
import { check } from '../../../src/checker/index.ts';
import { readHistory } from '../../../src/ingest/index.ts';
import { kv } from '../../../src/model/index.ts';

describe('synthetic kv history', () => {
  it('is the same for the same seed', () => {
    expect(syntheticKvLog(500, 5, 7)).toBe(syntheticKvLog(500, 5, 7));
    expect(syntheticKvLog(500, 5, 7)).not.toBe(syntheticKvLog(500, 5, 8));
  });

  it('keeps at most 8 operations in flight per key, about 2% of them indeterminate', () => {
    const { ops } = syntheticKvHistory(20_000, 200, 1);
    expect(ops).toHaveLength(20_000);
    const info = ops.filter((op) => op.outcome === 'info').length;
    expect(info / ops.length).toBeGreaterThan(0.005);
    expect(info / ops.length).toBeLessThan(0.02);
    const edgesByKey = new Map<string, [number, number][]>();
    for (const op of ops) {
      if (op.outcome !== 'ok') continue;
      const edges = edgesByKey.get(op.key) ?? [];
      edges.push([op.invokedAt, 1], [op.completedAt, -1]);
      edgesByKey.set(op.key, edges);
    }
    let most = 0;
    for (const edges of edgesByKey.values()) {
      // Closed intervals: at one instant an invocation counts before a completion.
      edges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      let open = 0;
      for (const [, d] of edges) most = Math.max(most, (open += d));
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });

  it('is linearizable, read back from its Porcupine kv log', () => {
    const text = syntheticKvLog(1_000, 50, 1);
    const { history } = readHistory('synthetic.txt', text, 'porcupine-kv');
    expect(history.ops.length).toBeGreaterThan(950);
    expect(check(history, kv as never).verdict).toBe('ok');
  });
});
