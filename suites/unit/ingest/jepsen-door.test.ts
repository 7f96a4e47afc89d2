/**
 * What Jepsen writes comes in without --format: a history that opens with a `;` comment, one written
 * as a list `( ... )` as well as a vector, and a history with no client operation (an empty file,
 * or the nemesis alone), which Knossos judges valid. A completion whose :time is before its
 * invocation's is a broken log: refused with file:line, never judged.
 */
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../src/ingest/index.ts';
import { cli, tempFile } from './support.ts';

const WRITE = '{:process 0, :type :invoke, :f :write, :value 1}';
const WROTE = '{:process 0, :type :ok, :f :write, :value 1}';

describe('the history door takes what Jepsen writes', () => {
  it('detects EDN whose first line is a comment, and a history written as a list', () => {
    expect(detectFormat(`; jepsen history\n;; of a register\n${WRITE}\n${WROTE}\n`)).toBe('jepsen');
    expect(detectFormat(`(${WRITE}\n ${WROTE})\n`)).toBe('jepsen');
    expect(detectFormat(`[${WRITE}\n ${WROTE}]\n`)).toBe('jepsen');
    expect(detectFormat('')).toBe('jepsen');
    expect(detectFormat('hello\n')).toBeUndefined();
  });

  it.each([
    ['a first-line comment', `; jepsen history\n${WRITE}\n${WROTE}\n`],
    ['a list of maps', `(${WRITE}\n ${WROTE})\n`],
  ])('checks a history with %s without --format', async (_, text) => {
    const { code, stdout, stderr } = await cli('check', tempFile('h.edn', text), '--model', 'register', '--no-report');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/\(jepsen, model register\): ok\n {2}1 ops on 1 key/);
  });

  it.each([
    ['an empty file', ''],
    ['only comments', '; nothing happened\n'],
    [
      'only the nemesis',
      '{:process :nemesis, :type :info, :f :start, :value nil}\n{:process :nemesis, :type :info, :f :start, :value :partitioned}\n',
    ],
  ])('judges a history with no client operation valid: %s (verdict ok, exit 0)', async (_, text) => {
    const { code, stdout } = await cli('check', tempFile('h.edn', text), '--model', 'register', '--no-report');
    expect(code).toBe(0);
    expect(stdout).toMatch(/: ok\n {2}0 ops on 0 key\(s\)/);
    const json = await cli('check', tempFile('h.edn', text), '--model', 'register', '--no-report', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'ok', stats: { ops: 0 } });
  });

  it('judges an empty chaoslua history valid too', async () => {
    const { code } = await cli('check', tempFile('h.json', '{"ops": []}'), '--model', 'register', '--no-report');
    expect(code).toBe(0);
  });

  it('refuses an :ok whose :time comes before its :invoke, naming the line', async () => {
    const text =
      '{:process 0, :type :invoke, :f :write, :value 1, :time 2000000}\n{:process 0, :type :ok, :f :write, :value 1, :time 1000000}\n';
    const { code, stderr } = await cli('check', tempFile('h.edn', text), '--model', 'register', '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^chaoslua: check: \S+h\.edn:2: :ok for process 0 at 1 ms comes before its :invoke on line 1 at 2 ms/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('still refuses an :ok that comes before any :invoke in the file', async () => {
    const { code, stderr } = await cli(
      'check',
      tempFile('h.edn', `${WROTE}\n${WRITE}\n`),
      '--model',
      'register',
      '--no-report',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/h\.edn:1: :ok for process 0, which has no open :invoke/);
  });
});
