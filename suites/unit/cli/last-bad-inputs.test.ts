import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { reapedDir } from '../../../src/cluster/reaper.ts';
import { Toxiproxy } from '../../../src/cluster/toxiproxy.ts';
import { printable } from '../../../src/cli/printable.ts';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

// The remaining bad inputs: each gets one line and the documented exit code (2 for input,
// 3 for the environment), never an internal error, raw bytes on the terminal, or a silent choice.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const COUNTEREXAMPLE = path.join(ROOT, 'suites/report/fixtures/20261130-081012-run-7/counterexample.json');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-last-bad-inputs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** One line on stderr, the exit code asked, no stack trace. */
async function expectOneLine(argv: string[], code: number, message: RegExp) {
  const r = await cli(argv);
  expect(r.stderr.trimEnd()).toMatch(message);
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  return r;
}

/** An executable shell script in the temporary folder. */
function script(name: string, body: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('corpus: an entry whose lastReplay has the wrong type names the file, exit 2', () => {
  const entry = JSON.parse(fs.readFileSync(COUNTEREXAMPLE, 'utf8'));
  const cases: [string, unknown, RegExp][] = [
    [
      'sha256 is a number',
      { at: '2026-12-01T00:00:00Z', status: 'passing', sha256: 7 },
      /corpus\.lastReplay\.sha256: expected a string, got 7$/,
    ],
    ['a string', 'yesterday', /corpus\.lastReplay: expected an object \{at, status, sha256\}, got "yesterday"$/],
    [
      'an unknown status',
      { at: '2026-12-01T00:00:00Z', status: 'green', sha256: 'ab' },
      /corpus\.lastReplay\.status: expected one of failing, passing, skipped, got "green"$/,
    ],
  ];
  it.each(cases)('%s', async (_name, lastReplay, message) => {
    const dir = fs.mkdtempSync(path.join(tmp, 'corpus-'));
    const file = path.join(dir, 'entry.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ ...entry, corpus: { sha256: 'ab', savedAt: '2026-12-01T00:00:00Z', from: 'x', lastReplay } }),
    );
    const r = await expectOneLine(['corpus', 'list', dir], 2, message);
    expect(r.stderr).toContain(file);
    await expectOneLine(['corpus', 'prune', dir], 2, message);
  });
});

describe('a redis-server that does not run is the environment: one line, exit 3', () => {
  it.each([
    [
      'fails --version',
      'echo "error while loading shared libraries: libssl.so.3" >&2; exit 127',
      /redis-server at \S+ does not run: `--version` failed \(exit 127: "error while loading shared libraries: libssl\.so\.3"\)/,
    ],
    ['is killed', 'kill -9 $$', /does not run: `--version` failed \(killed by SIGKILL\)/],
    [
      'answers garbage',
      'echo "hello"',
      /is of unknown version: `--version` answered "hello", not a Redis or Valkey server's line; install Redis 6\.2 or later/,
    ],
    // The oldest --server accepts, 6.2, is accepted here too: 6.0 is not.
    [
      'is Redis 6.0',
      'echo "Redis server v=6.0.16 sha=0"',
      /redis-server at \S+: redis 6\.0\.16 is older than 6\.2, the oldest a cluster here runs on/,
    ],
  ])('one that %s', async (name, body, message) => {
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', script(`redis-${name.replace(/\W+/g, '-')}`, body));
    await expectOneLine(['run', '--runs', '1'], 3, message);
  });

  it('a missing one, with installing turned off, says what to run', async () => {
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', path.join(tmp, 'no-such-redis-server'));
    await expectOneLine(
      ['run', '--runs', '1'],
      3,
      /redis-server not found at CHAOSLUA_REDIS_SERVER=\S+: run `npx chaoslua install`/,
    );
  });
});

describe('output places are checked before the work, as certify checks --report: exit 2', () => {
  const dirAsFile = path.join(tmp, 'a-file');
  fs.writeFileSync(dirAsFile, 'x');
  const history = path.join(tmp, 'h.edn');
  fs.writeFileSync(
    history,
    '{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :write, :value 1}\n',
  );
  const cases: [string, string[], RegExp][] = [
    [
      'check --report a file',
      ['check', history, '--model', 'register', '--report', dirAsFile],
      /^chaoslua: check: --report \S+a-file: is a file, not a directory$/,
    ],
    [
      'check --report under a file',
      ['check', history, '--model', 'register', '--report', `${dirAsFile}/reports`],
      /check: --report \S+: \S+a-file is a file, not a directory/,
    ],
    [
      'export --out a directory',
      ['export', history, '--format', 'jepsen', '--model', 'register', '--out', tmp],
      /^chaoslua: export: --out \S+: is a directory; name a file to write$/,
    ],
    [
      'export --out under a file',
      ['export', history, '--format', 'jepsen', '--model', 'register', '--out', `${dirAsFile}/h.edn`],
      /export: --out \S+h\.edn: \S+a-file is a file, not a directory$/,
    ],
    [
      'merge --out a directory',
      ['merge', COUNTEREXAMPLE, '--out', tmp],
      /^chaoslua: merge: --out \S+: is a directory; name a file to write$/,
    ],
  ];
  it.each(cases)('%s', async (_, argv, message) => {
    const attempts = forbidClusters();
    await expectOneLine(argv, 2, message);
    expect(attempts).toEqual([]);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('2026'))).toEqual([]);
  });

  it('export --out to a folder not yet made makes it, as merge does', async () => {
    const out = path.join(tmp, 'new', 'folder', 'h.edn');
    const r = await cli(['export', history, '--format', 'jepsen', '--model', 'register', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/:type :invoke/);
  });
});

describe('binary garbage is quoted with its control bytes escaped, never sent to the terminal', () => {
  const garbage = path.join(tmp, 'garbage.bin');
  fs.writeFileSync(garbage, Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x07, 0x00, 0xff, 0xfe, 0x9b, 0x7b, 0x22]));
  it.each([
    ['check --format chaoslua', ['check', garbage, '--format', 'chaoslua', '--no-report']],
    ['check --format jepsen', ['check', garbage, '--format', 'jepsen', '--model', 'register', '--no-report']],
    ['replay', ['replay', garbage]],
    ['certify --baseline', ['certify', '--impl', 'lua:lua/idempotency', '--baseline', garbage]],
  ])('%s', async (_, argv) => {
    forbidClusters();
    const r = await expectOneLine(argv, 2, /garbage\.bin/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what must not reach the terminal
    expect(r.stderr.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f-\u009f\ufffd]/);
  });

  it('escapes control characters and undecodable bytes, and keeps printable text as it is', () => {
    expect(printable('\u001b[31mred\u0007\u0000 é ✓ \ufffd\u202e')).toBe(
      '\\x1b[31mred\\x07\\x00 é ✓ \\u{fffd}\\u{202e}',
    );
  });
});

describe('a flag that takes one value, given twice, is refused: exit 2', () => {
  it.each([
    [
      '--runs',
      ['run', '--runs', '5', '--runs', '7'],
      /^chaoslua: run: --runs given twice \('--runs 5', '--runs 7'\); it takes one value$/,
    ],
    [
      '--durability',
      ['certify', '--impl', 'lua:lua/idempotency', '--durability', 'wait:1:100', '--durability=wait:1:200'],
      /--durability given twice \('--durability wait:1:100', '--durability wait:1:200'\)/,
    ],
    [
      '--format of check',
      ['check', COUNTEREXAMPLE, '--format', 'chaoslua', '--format', 'jepsen'],
      /check: --format given twice/,
    ],
    [
      '--set of one setting (as before)',
      ['run', '--pattern', 'ratelimit', '--set', 'window=3', '--set', 'window=4'],
      /--set window given twice/,
    ],
  ])('%s', async (_, argv, message) => {
    const attempts = forbidClusters();
    await expectOneLine(argv, 2, message);
    expect(attempts).toEqual([]);
  });

  it('a switch given twice is still one switch, and --set takes several settings', async () => {
    const r = await cli(['check', COUNTEREXAMPLE, '--no-report', '--no-report', '--json', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
  });
});

describe('a Toxiproxy that exits at start: its log is quoted, not named (the folder goes with the cluster)', () => {
  it('quotes the last line of the log', async () => {
    const fake = script(
      'toxiproxy-exits',
      'echo "starting"; echo "listen tcp 127.0.0.1:1: bind: permission denied" >&2; exit 1',
    );
    const dir = reapedDir('chaoslua-test-toxiproxy');
    try {
      const error = await Toxiproxy.start(fake, dir, 1, 1).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(
        /^toxiproxy-server \S+toxiproxy-exits exited with 1 at start: its log ends "listen tcp 127\.0\.0\.1:1: bind: permission denied"$/,
      );
      expect(error?.message).not.toContain(dir.dir);
    } finally {
      dir.destroy();
    }
  });

  it('says so when it wrote nothing', async () => {
    const dir = reapedDir('chaoslua-test-toxiproxy');
    try {
      await expect(Toxiproxy.start('/bin/false', dir, 1, 1)).rejects.toThrow(
        /exited with 1 at start: its log is empty$/,
      );
    } finally {
      dir.destroy();
    }
  });
});
