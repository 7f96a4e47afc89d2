/**
 * `chaoslua export` writes what other tools read; reading it back must give the same verdict.
 * Porcupine's logs come back byte for byte; Jepsen EDN keeps every operation and its timing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/cli/check.ts';
import { cli, FIXTURES, tempFile } from '../ingest/support.ts';

const ETCD = Array.from({ length: 103 }, (_, n) => n)
  .filter((n) => n !== 95)
  .map((n) => path.join(FIXTURES, 'jepsen', `etcd_${String(n).padStart(3, '0')}.log`));
const KV = ['c01-ok', 'c01-bad', 'c10-ok', 'c10-bad'].map((name) => path.join(FIXTURES, 'kv', `${name}.txt`));
const CHECKER_FIXTURES = path.join(import.meta.dirname, '..', 'checker', 'fixtures');

async function exported(file: string, format: 'porcupine' | 'jepsen', ...extra: string[]): Promise<string> {
  const { code, stdout, stderr } = await cli('export', file, '--format', format, ...extra);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout;
}

describe('export then check', () => {
  it.each([...ETCD, ...KV])('%s: Porcupine format reproduces the log, Jepsen EDN the verdict', async (file) => {
    const original = checkFile(file).result.verdict;
    const porcupine = await exported(file, 'porcupine');
    // The logs mix tabs and runs of spaces between fields; Porcupine's parser reads any of them.
    // Process numbers may differ: export gives a fresh one after an indeterminate operation.
    const fields = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).filter((_, i) => i !== 3 || !file.endsWith('.log')));
    expect(fields(porcupine)).toEqual(fields(fs.readFileSync(file, 'utf8')));
    const edn = tempFile('h.edn', await exported(file, 'jepsen'));
    expect(checkFile(edn, 'jepsen', file.endsWith('.log') ? 'register' : 'kv').result.verdict).toBe(original);
  });

  it.each([
    ['resent-renew.json', 'idempotency'],
    ['refused-after-cut.json', 'ratelimit'],
    ['info-ops-around-kill.json', 'idempotency'],
  ])('%s (%s, with its faults) through Jepsen EDN', async (name, model) => {
    const file = path.join(CHECKER_FIXTURES, name);
    const original = checkFile(file, 'chaoslua', model).result;
    const edn = tempFile('h.edn', await exported(file, 'jepsen', '--model', model));
    const back = checkFile(edn, 'jepsen', model).result;
    expect(back.verdict).toBe(original.verdict);
    expect(back.stats.ops).toBe(original.stats.ops);
  });

  it('keeps a register cas that answered false as such through Jepsen EDN', async () => {
    const log = ['0\t:invoke\t:write\t1', '0\t:ok\t:write\t1', '1\t:invoke\t:cas\t[1 3]', '1\t:fail\t:cas\t[1 3]']
      .map((l) => `INFO  jepsen.util - ${l}`)
      .join('\n');
    const file = tempFile('h.log', log + '\n');
    const edn = await exported(file, 'jepsen');
    expect(edn).toMatch(/:type :fail, :f :cas, :value \[1 3\], :error :cas-mismatch/);
    expect(checkFile(tempFile('h.edn', edn), 'jepsen', 'register').result.verdict).toBe('illegal');
  });

  it('writes an indeterminate operation under a fresh process, as Jepsen does', async () => {
    const log = ['0\t:invoke\t:write\t1', '0\t:info\t:write\t:timed-out', '0\t:invoke\t:read\tnil', '0\t:ok\t:read\t1']
      .map((l) => `INFO  jepsen.util - ${l}`)
      .join('\n');
    const out = await exported(tempFile('h.log', log + '\n'), 'porcupine');
    expect(out.split('\n').slice(2, 4)).toEqual([
      'INFO  jepsen.util - 1\t:invoke\t:read\tnil',
      'INFO  jepsen.util - 1\t:ok\t:read\t1',
    ]);
  });

  it("refuses Porcupine's format for a history it cannot hold, in one line, exit 2", async () => {
    const { code, stderr } = await cli(
      'export',
      path.join(CHECKER_FIXTURES, 'resent-renew.json'),
      '--format',
      'porcupine',
      '--model',
      'idempotency',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /Porcupine's log formats hold register \(etcd\) and kv histories, not idempotency; use --format jepsen/,
    );
  });
});
