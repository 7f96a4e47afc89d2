/**
 * Porcupine's own test data, judged through `chaoslua check`: every verdict as Porcupine's tests
 * (porcupine_test.go, v1.3.1) expect it. The expected lists are copied from those tests
 * (fixtures/porcupine/PROVENANCE.md), not derived from this checker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES } from './support.ts';

// porcupine_test.go: TestEtcdJepsen000 ... TestEtcdJepsen102 (095 has no test: its log is empty).
const LINEARIZABLE_ETCD = new Set([2, 5, 7, 18, 25, 31, 38, 45, 48, 49, 51, 53, 56, 67, 75, 76, 80, 87, 92, 98, 100, 101, 102]);
const ETCD = Array.from({ length: 103 }, (_, n) => n).filter((n) => n !== 95);
// TestKv1ClientOk ... TestKv50ClientsBad.
const KV: [string, boolean][] = [
  ['c01-ok', true],
  ['c01-bad', false],
  ['c10-ok', true],
  ['c10-bad', false],
  ['c50-ok', true],
  ['c50-bad', false],
];

async function verdictOf(file: string): Promise<{ code: number; verdict: string }> {
  const { code, stdout, stderr } = await cli('check', file, '--no-report', '--json');
  expect(stderr).toBe('');
  return { code, verdict: (JSON.parse(stdout) as { verdict: string }).verdict };
}

describe("Porcupine's test data through chaoslua check", () => {
  it('holds all 108 histories: 102 etcd logs and six kv logs', () => {
    const etcd = fs.readdirSync(path.join(FIXTURES, 'jepsen')).filter((f) => fs.statSync(path.join(FIXTURES, 'jepsen', f)).size > 0);
    expect(etcd.length + KV.length).toBe(108);
    expect(ETCD.length).toBe(102);
  });

  it.each(ETCD)('etcd_%i as Porcupine expects', async (n) => {
    const file = path.join(FIXTURES, 'jepsen', `etcd_${String(n).padStart(3, '0')}.log`);
    const linearizable = LINEARIZABLE_ETCD.has(n);
    expect(await verdictOf(file)).toEqual(linearizable ? { code: 0, verdict: 'ok' } : { code: 1, verdict: 'illegal' });
  });

  // The 50-client logs have long appended strings per key; they are the slow ones.
  it.each(KV)('kv %s as Porcupine expects', { timeout: 600_000 }, async (name, linearizable) => {
    const file = path.join(FIXTURES, 'kv', `${name}.txt`);
    expect(await verdictOf(file)).toEqual(linearizable ? { code: 0, verdict: 'ok' } : { code: 1, verdict: 'illegal' });
  });

  it('refuses the empty etcd_095 log as input, not as a verdict', async () => {
    const { code, stderr } = await cli('check', path.join(FIXTURES, 'jepsen', 'etcd_095.log'), '--format', 'porcupine-etcd', '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(/etcd_095\.log: the file is empty/);
  });
});
