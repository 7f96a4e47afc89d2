import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The table of hostile inputs: for every command, what never ends or never answers
 * (/dev/zero, a FIFO nobody writes, a path under /proc or /sys, a file past the bound, a folder
 * where a file is wanted and a file where a folder is), with what its one line must say. Built in a
 * temp folder that `removeHostileFiles` removes. Before the fix, check --report /proc/x spun
 * forever (deaf to SIGTERM) and check /dev/zero read for 83 s and aborted.
 *
 * suites/cli/hostile-inputs.test.ts runs the cases marked `real` through the real entry point (a
 * process each, with a deadline, checking that nothing is left); every case runs in-process in
 * suites/unit/cli/hostile-matrix.test.ts, since a process each would cost npm test half a minute.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const COUNTEREXAMPLE = path.join(ROOT, 'suites/report/fixtures/20261130-081012-run-7/counterexample.json');
const REFERENCE = `lua:${path.join(ROOT, 'lua/idempotency')}`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-hostile-'));
export const removeHostileFiles = () => fs.rmSync(work, { recursive: true, force: true });

const at = (name: string) => path.join(work, name);
const fifo = at('fifo');
execFileSync('mkfifo', [fifo]);
// Sparse: 70 MiB by its size, past every bound (the largest, a history's, is 64 MiB), no disk used.
const big = at('big');
fs.writeFileSync(big, '');
fs.truncateSync(big, 70 * 1024 * 1024);
const aFile = at('a-file');
fs.writeFileSync(aFile, 'x');
const aDir = at('a-dir');
fs.mkdirSync(aDir);
const history = at('h.edn');
fs.writeFileSync(
  history,
  '{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :write, :value 1}\n',
);

/** A lua:DIR whose four scripts all lead to `target`. */
function luaDir(name: string, target: string): string {
  const dir = at(name);
  fs.mkdirSync(dir);
  for (const script of ['register_or_get', 'complete', 'release', 'renew'])
    fs.symlinkSync(target, path.join(dir, `${script}.lua`));
  return dir;
}
/** A corpus folder whose one entry leads to `target`. */
function corpusDir(name: string, target: string): string {
  const dir = at(name);
  fs.mkdirSync(dir);
  fs.symlinkSync(target, path.join(dir, 'entry.json'));
  return dir;
}

/** The inputs a command reads, each with what its one line must say. */
const READS: [string, string, RegExp][] = [
  ['/dev/zero', '/dev/zero', /\/dev\/zero: larger than \d+ MiB, the bound on an? [A-Za-z ]+ \(CHAOSLUA_MAX_INPUT_MB/],
  ['a FIFO nobody writes', fifo, /fifo: nothing came from it for 0\.15 s/],
  ['a file larger than the bound', big, /big: 70\.0 MiB, larger than \d+ MiB, the bound on/],
  ['a path under /proc', '/proc/self/pagemap', /\/proc\/self\/pagemap/],
];
/** A case: its name, the CLI's arguments, its one line, and whether it also runs as a process. */
export type HostileCase = readonly [name: string, args: readonly string[], message: RegExp, real?: 'real'];

/** The command with each input read; `real` marks the one of them also run as a process. */
const asHistory = (command: string, more: string[], real: string) =>
  READS.map(
    ([what, file, message]) =>
      [`${command} ${what}`, [command, file, ...more], message, what === real ? 'real' : undefined] as const,
  );

/** How long a FIFO may stay silent in these cases (CHAOSLUA_READ_WAIT_MS), where the default is 10 s. */
export const READ_WAIT_MS = '150';

export const HOSTILE_CASES: readonly HostileCase[] = [
  // Files read.
  ...asHistory('check', ['--format', 'jepsen', '--model', 'register', '--no-report'], '/dev/zero'),
  [
    'check a directory',
    ['check', aDir, '--format', 'jepsen', '--model', 'register', '--no-report'],
    /a-dir: is a directory, not a history file/,
    'real',
  ],
  ...asHistory('export', ['--format', 'jepsen', '--model', 'register'], 'a FIFO nobody writes'),
  ...asHistory('merge', ['--out', at('merged.json')], 'a file larger than the bound'),
  ['merge a directory', ['merge', aDir, '--out', at('merged.json')], /a-dir: is a directory/],
  ...asHistory('replay', ['--no-rerun'], 'a path under /proc'),
  ['replay a directory', ['replay', aDir, '--no-rerun'], /a-dir: is a directory/],
  ...READS.slice(0, 3).map(
    ([what, file, message]) =>
      [`lint ${what}`, ['lint', file], message, what === 'a FIFO nobody writes' ? 'real' : undefined] as const,
  ),
  ...READS.slice(0, 3).map(
    ([what, file, message]) =>
      [`certify --baseline ${what}`, ['certify', '--impl', REFERENCE, '--baseline', file], message] as const,
  ),
  [
    'certify lua: scripts that are /dev/zero',
    ['certify', '--impl', `lua:${luaDir('lua-zero', '/dev/zero')}`],
    /register_or_get\.lua: not a regular file/,
    'real',
  ],
  [
    'certify lua: scripts that are a FIFO',
    ['certify', '--impl', `lua:${luaDir('lua-fifo', fifo)}`],
    /register_or_get\.lua: not a regular file/,
  ],
  [
    'certify lua: scripts past the bound',
    ['certify', '--impl', `lua:${luaDir('lua-big', big)}`],
    /register_or_get\.lua: 70\.0 MiB, larger than 4 MiB, the bound on a Lua script/,
  ],
  [
    'corpus list: an entry that is /dev/zero',
    ['corpus', 'list', corpusDir('corpus-zero', '/dev/zero')],
    /entry\.json: larger than 64 MiB, the bound on a corpus entry/,
  ],
  [
    'corpus list: an entry that is a FIFO',
    ['corpus', 'list', corpusDir('corpus-fifo', fifo)],
    /entry\.json: nothing came from it/,
    'real',
  ],
  [
    'corpus list: an entry past the bound',
    ['corpus', 'list', corpusDir('corpus-big', big)],
    /entry\.json: 70\.0 MiB, larger than 64 MiB/,
  ],
  ['corpus list: a file for the folder', ['corpus', 'list', aFile], /a-file: not a directory/],
  // Paths written.
  [
    'check --report under /proc',
    ['check', history, '--model', 'register', '--report', '/proc/no-such-dir'],
    /--report \/proc\/no-such-dir: is under \/proc, a pseudo-filesystem/,
    'real',
  ],
  [
    'check --report under /sys',
    ['check', history, '--model', 'register', '--report', '/sys/no-such-dir'],
    /--report \/sys\/no-such-dir: is under \/sys/,
  ],
  [
    'check --report a file',
    ['check', history, '--model', 'register', '--report', aFile],
    /--report \S+a-file: is a file, not a directory/,
  ],
  [
    'check --report a FIFO',
    ['check', history, '--model', 'register', '--report', fifo],
    /--report \S+fifo: is a FIFO, not a directory/,
  ],
  [
    'export --out under /proc',
    ['export', history, '--format', 'jepsen', '--model', 'register', '--out', '/proc/no-such-dir/h.edn'],
    /--out \/proc\/no-such-dir\/h\.edn: is under \/proc/,
    'real',
  ],
  [
    'export --out a directory',
    ['export', history, '--format', 'jepsen', '--model', 'register', '--out', aDir],
    /--out \S+a-dir: is a directory; name a file/,
  ],
  [
    'export --out a FIFO',
    ['export', history, '--format', 'jepsen', '--model', 'register', '--out', fifo],
    /--out \S+fifo: is a FIFO, not a regular file/,
  ],
  [
    'merge --out under /proc',
    ['merge', COUNTEREXAMPLE, '--out', '/proc/self/x.json'],
    /--out \/proc\/self\/x\.json: is under \/proc/,
  ],
  [
    'merge --junit a directory',
    ['merge', COUNTEREXAMPLE, '--out', at('m.json'), '--junit', aDir],
    /--junit \S+a-dir: is a directory/,
    'real',
  ],
  [
    'certify --report under /proc',
    ['certify', '--impl', REFERENCE, '--report', '/proc/no-such-dir'],
    /certify: --report \/proc\/no-such-dir: is under \/proc/,
    'real',
  ],
  [
    'certify --corpus under /proc',
    ['certify', '--impl', REFERENCE, '--corpus', '/proc/no-such-dir'],
    /certify: --corpus \/proc\/no-such-dir: is under \/proc/,
  ],
  ['run --report a file', ['run', '--report', aFile], /run: --report \S+a-file: is a file, not a directory/, 'real'],
  [
    'scenario run --report under /proc',
    ['scenario', 'run', 'stale-completion', '--report', '/proc/no-such-dir'],
    /scenario run: --report \/proc\/no-such-dir: is under \/proc/,
    'real',
  ],
  [
    'report serve --report under /sys',
    ['report', 'serve', '--port', '0', '--report', '/sys/no-such-dir'],
    /report serve: --report \/sys\/no-such-dir: is under \/sys/,
    'real',
  ],
  [
    'report open --report a file',
    ['report', 'open', '--report', aFile],
    /report open: --report \S+a-file: is a file, not a directory/,
    'real',
  ],
];
