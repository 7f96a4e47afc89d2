/**
 * Porcupine's kv test logs judged through `chaoslua check`, every verdict as Porcupine's tests
 * (porcupine_test.go, v1.3.1) expect it; the etcd logs are porcupine-verdicts.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, porcupineVerdictOf as verdictOf } from './support.ts';

// TestKv1ClientOk ... TestKv50ClientsBad.
const KV: [string, boolean][] = [
  ['c01-ok', true],
  ['c01-bad', false],
  ['c10-ok', true],
  ['c10-bad', false],
  ['c50-ok', true],
  ['c50-bad', false],
];

describe("Porcupine's kv logs through chaoslua check", () => {
  // The 50-client logs have long appended strings per key; they are the slow ones.
  it.each(KV)('kv %s as Porcupine expects', { timeout: 600_000 }, async (name, linearizable) => {
    const file = path.join(FIXTURES, 'kv', `${name}.txt`);
    expect(await verdictOf(file)).toEqual(linearizable ? { code: 0, verdict: 'ok' } : { code: 1, verdict: 'illegal' });
  });
});
