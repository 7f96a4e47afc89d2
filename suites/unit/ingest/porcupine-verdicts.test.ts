/**
 * Porcupine's own test data, judged through `chaoslua check`: every verdict as Porcupine's tests
 * (porcupine_test.go, v1.3.1) expect it. The expected lists are copied from those tests
 * (fixtures/porcupine/PROVENANCE.md), not derived from this checker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, porcupineVerdictOf as verdictOf } from './support.ts';

// The six kv logs are porcupine-kv-verdicts.test.ts (a file of their own, so the two halves run side by side).
const KV_LOGS = 6;

// porcupine_test.go: TestEtcdJepsen000 ... TestEtcdJepsen102 (095 has no test: its log is empty).
const LINEARIZABLE_ETCD = new Set([
  2, 5, 7, 18, 25, 31, 38, 45, 48, 49, 51, 53, 56, 67, 75, 76, 80, 87, 92, 98, 100, 101, 102,
]);
const ETCD = Array.from({ length: 103 }, (_, n) => n).filter((n) => n !== 95);
describe("Porcupine's test data through chaoslua check", () => {
  it('holds all 108 histories: 102 etcd logs and six kv logs', () => {
    expect(fs.readdirSync(path.join(FIXTURES, 'kv')).filter((f) => f.endsWith('.txt'))).toHaveLength(KV_LOGS);
    const etcd = fs
      .readdirSync(path.join(FIXTURES, 'jepsen'))
      .filter((f) => fs.statSync(path.join(FIXTURES, 'jepsen', f)).size > 0);
    expect(etcd.length + KV_LOGS).toBe(108);
    expect(ETCD.length).toBe(102);
  });

  it.each(ETCD)('etcd_%i as Porcupine expects', async (n) => {
    const file = path.join(FIXTURES, 'jepsen', `etcd_${String(n).padStart(3, '0')}.log`);
    const linearizable = LINEARIZABLE_ETCD.has(n);
    expect(await verdictOf(file)).toEqual(linearizable ? { code: 0, verdict: 'ok' } : { code: 1, verdict: 'illegal' });
  });

  it('judges the empty etcd_095 log valid: no operation, nothing to refuse (Knossos calls an empty history valid)', async () => {
    const { code, stdout } = await cli(
      'check',
      path.join(FIXTURES, 'jepsen', 'etcd_095.log'),
      '--format',
      'porcupine-etcd',
      '--no-report',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/: ok\n {2}0 ops on 0 key\(s\)/);
    expect(stdout).toMatch(/an empty history is valid/);
  });
});
