/**
 * A large legal kv history, generated deterministically: `ops` operations over `keys` keys, at most
 * 8 in flight per key, 2% indeterminate (puts and appends whose client gave up; half of them took
 * effect). Each operation takes effect at an instant inside its interval, distinct per key, and
 * every get returns the key's string at that instant, so the history is linearizable by
 * construction. Written in Porcupine's kv log format so both checkers read the same file.
 */
import type { History, OpRecord } from '../../src/history/types.ts';
import type { KvInput } from '../../src/model/kv.ts';
import { toPorcupine } from '../../src/export/porcupine.ts';

/** mulberry32, as bench/checker.ts: small, seeded, reproducible. */
function rng(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Instants 9-11 ms apart and intervals reaching at most 35 ms either side: 9 operations in flight
// together would need 8 gaps within 70 ms, so at most 8 are (bench/checker.ts's shape).
const GAP_MIN = 9;
const GAP_SPREAD = 3;
const REACH = 35;
const LANES = 8;

export function syntheticKvHistory(totalOps: number, keyCount: number, seed: number, indeterminate = 0.02): History {
  const random = rng(seed);
  const ops: OpRecord[] = [];
  const perKey = Math.ceil(totalOps / keyCount);
  for (let k = 0; k < keyCount && ops.length < totalOps; k++) {
    const key = `k${k}`;
    let at = random() * 100;
    let text = '';
    for (let i = 0; i < perKey && ops.length < totalOps; i++) {
      at += GAP_MIN + Math.floor(random() * GAP_SPREAD);
      const roll = random();
      const input: KvInput =
        roll < 0.4
          ? { op: 'get' }
          : roll < 0.5
            ? { op: 'put', value: `p${k}.${i}` }
            : { op: 'append', value: `a${i}.` };
      const invokedAt = at - Math.floor(random() * REACH);
      const completedAt = at + Math.floor(random() * REACH);
      // Lanes 8 instants apart never overlap (8 x 9 ms > 2 x 35 ms): one client per lane and key.
      const base = {
        type: 'op' as const,
        id: ops.length,
        client: k * LANES + (i % LANES),
        key,
        input,
        invokedAt,
        completedAt,
      };
      if (input.op !== 'get' && random() < indeterminate) {
        if (random() < 0.5) text = input.op === 'put' ? input.value : text + input.value;
        ops.push({ ...base, outcome: 'info', error: 'timed out' });
        continue;
      }
      if (input.op === 'put') text = input.value;
      if (input.op === 'append') text += input.value;
      ops.push({ ...base, outcome: 'ok', output: input.op === 'get' ? text : input.value });
    }
  }
  return { ops, faults: [], topology: [] };
}

export function syntheticKvLog(totalOps: number, keyCount: number, seed: number): string {
  return toPorcupine(syntheticKvHistory(totalOps, keyCount, seed), 'kv');
}
