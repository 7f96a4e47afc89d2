import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { internalError } from '../../../src/cli/main.ts';
import { LocalCluster } from '../../../src/cluster/local.ts';
import { cli, expectUsage as usage, forbidClusters, STACK_FRAME } from './support.ts';

// Bad inputs a new user tried: each answers with one line and exit 2, before any
// cluster starts. The ones that need a running cluster are in suites/certify/bad-implementations.test.ts.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const COUNTEREXAMPLE = path.join(ROOT, 'suites/report/fixtures/20261130-081012-run-7/counterexample.json');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-bad-inputs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The fixture counterexample with one change, written to a file. */
function counterexampleWith(name: string, change: (c: any) => unknown): string {
  const c = JSON.parse(fs.readFileSync(COUNTEREXAMPLE, 'utf8'));
  const changed = change(c);
  const file = path.join(tmp, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(changed === undefined ? c : changed));
  return file;
}

const expectUsage = (argv: string[], message: RegExp) => usage(argv, message, attempts);

describe('replay: a counterexample with the right version but wrong fields names the field, exit 2', () => {
  const cases: [string, (c: any) => unknown, RegExp][] = [
    ['history is a string', (c) => void (c.history = 'x'), /history: expected an object, got "x"/],
    [
      'an unknown pattern',
      (c) => void (c.pattern = 'queue'),
      /pattern: expected one of idempotency, lock, ratelimit, semaphore, gcra, register, kv, or a pattern loaded with --pattern FILE, got "queue"/,
    ],
    [
      'ops without input',
      (c) => void c.history.ops.forEach((o: any) => delete o.input),
      /history\.ops\[0\]\.input: expected an object, got undefined/,
    ],
    [
      'an owner that is a number',
      (c) => void (c.history.ops[1].input.owner = 7),
      /history\.ops\[1\]\.input\.owner: expected a string, got 7/,
    ],
    [
      'a step of an unknown type',
      (c) => void (c.schedule.clients[0][0] = { type: 'jump' }),
      /schedule\.clients\[0\]\[0\]\.type: expected one of op, pause, freeze/,
    ],
    ['a file holding null', () => null, /null\.json: not a chaoslua counterexample \(it holds null/],
  ];
  it.each(cases)('%s', async (name, change, message) => {
    const file = counterexampleWith(name.replace(/\W+/g, '-'), change);
    await expectUsage(['replay', file, '--no-rerun'], message);
    await expectUsage(['replay', file], message); // with a re-run asked: still no cluster
  });

  it('the unchanged fixture is still read (the schema is not stricter than what certify writes)', async () => {
    const r = await cli(['replay', COUNTEREXAMPLE, '--no-rerun']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/re-check of the recorded history: illegal/);
    expect(r.code).toBe(1);
  });
});

describe('lint: a file the parser cannot read is a syntax finding with file:line, never a crash', () => {
  const files: [string, string, RegExp][] = [
    ['fence.lua', '```lua\nreturn 1\n```\n', /fence\.lua:1:1 syntax unexpected symbol near '`'/],
    ['at.lua', '@x = 1\n', /at\.lua:1:1 syntax unexpected symbol near '@'/],
    ['dollar.lua', '-- a comment first\n  $x = 1\n', /dollar\.lua:2:3 syntax unexpected symbol near '\$'/],
    ['nul.lua', '\0return 1\n', /nul\.lua:1:1 syntax unexpected symbol near '\\0'/],
  ];
  it.each(files)('%s', async (name, source, finding) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, source);
    const r = await cli(['lint', file]);
    expect(r.stdout).toMatch(finding);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it("no state leaks from one file to the next (no stale near '<eof>')", async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'leak-'));
    fs.writeFileSync(path.join(dir, 'a.lua'), 'local x = \n'); // ends at <eof>
    fs.writeFileSync(path.join(dir, 'b.lua'), '@oops\n');
    const r = await cli(['lint', dir]);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/a\.lua:2:1 syntax .*near '<eof>'/),
      expect.stringMatching(/b\.lua:1:1 syntax unexpected symbol near '@'$/),
    ]);
  });

  it('certify --impl lua: with such a file: exit 2 naming the file and line, no cluster', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'fenced-'));
    for (const name of ['register_or_get', 'complete', 'release', 'renew'])
      fs.copyFileSync(path.join(ROOT, 'lua/idempotency', `${name}.lua`), path.join(dir, `${name}.lua`));
    fs.writeFileSync(path.join(dir, 'renew.lua'), '```lua\nreturn 1\n```\n');
    await expectUsage(['certify', '--impl', `lua:${dir}`], /renew\.lua:1:1 syntax unexpected symbol near '`'/);
  });
});

describe('run and certify: flags checked before any cluster starts', () => {
  it('--shrink-time that is not a duration: exit 2 naming the flag', async () => {
    await expectUsage(
      ['run', '--shrink-time', 'soon'],
      /^chaoslua: run: --shrink-time must be a duration like 60s, 2m or 1500ms, got 'soon'$/m,
    );
  });

  const cases: [string, string[], RegExp][] = [
    ['--report pointing at a file', ['run', '--report', COUNTEREXAMPLE], /--report .*is a file, not a directory/],
    [
      '--report under a file',
      ['certify', '--impl', 'lua:lua/idempotency', '--report', `${COUNTEREXAMPLE}/reports`],
      /is a file, not a directory/,
    ],
    [
      '--faults failover on an external cluster without --allow-destructive',
      ['run', '--cluster', 'redis://127.0.0.1:7000', '--faults', 'failover'],
      /--faults failover on an external cluster needs --allow-destructive/,
    ],
    [
      '--faults node-freeze on an external cluster',
      ['run', '--cluster', 'redis://127.0.0.1:7000', '--faults', 'node-freeze', '--allow-destructive'],
      /node-freeze cannot run on an external cluster/,
    ],
    [
      '--faults partition-one without --cluster netns',
      ['run', '--faults', 'latency,partition-one'],
      /--faults partition-one needs --cluster netns/,
    ],
    ["--faults '' (an unset variable)", ['run', '--faults', ''], /--faults: the fault list is empty/],
    ['--faults all,gremlins names gremlins', ['run', '--faults', 'all,gremlins'], /unknown fault 'gremlins'/],
    ['--faults latency,,timeout', ['run', '--faults', 'latency,,timeout'], /has an empty name/],
    [
      '--runs -1 says what is wrong with it',
      ['run', '--runs', '-1'],
      /--runs must be an integer in \[1, 1000000\], got '-1'/,
    ],
    [
      '--runs 0',
      ['certify', '--impl', 'lua:lua/idempotency', '--runs', '0'],
      /--runs must be an integer in \[1, 1000000\], got '0'/,
    ],
  ];
  it.each(cases)('%s', async (_, argv, message) => {
    const r = await expectUsage(argv, message);
    if (argv.includes('all,gremlins')) expect(r.stderr).not.toMatch(/unknown fault 'all'/);
  });

  it('a TypeScript module with a syntax error: file:line:column, before any cluster', async () => {
    const file = path.join(tmp, 'broken-store.ts');
    fs.writeFileSync(file, 'export function createStore(redis: unknown) {\n  return { registerOrGet( }\n}\n');
    await expectUsage(['certify', '--impl', `module:${file}`], /broken-store\.ts:2:\d+: /);
  });
});

describe('an unexpected internal error: one line naming the command, no stack trace', () => {
  it('a programming error: exit 1, hint to rerun with --debug', async () => {
    vi.spyOn(LocalCluster, 'start').mockImplementation(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    const r = await cli(['run', '--runs', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "chaoslua run: internal error: Cannot read properties of undefined (reading 'x') (rerun with --debug for the stack trace)\n",
    );
  });

  it('a system refusal (errno code): exit 3, the environment', async () => {
    vi.spyOn(LocalCluster, 'start').mockImplementation(async () => {
      throw Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:7000'), {
        code: 'EADDRINUSE',
        syscall: 'listen',
      });
    });
    const r = await cli(['run', '--runs', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^chaoslua run: environment: listen EADDRINUSE/);
  });

  it('--debug prints the stack after the line', async () => {
    vi.spyOn(LocalCluster, 'start').mockImplementation(async () => {
      throw new RangeError('boom');
    });
    const r = await cli(['run', '--runs', '1', '--debug']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('chaoslua run: internal error: boom');
    expect(r.stderr).toMatch(STACK_FRAME);
  });

  it('a thrown non-Error still gives one line', () => {
    let stderr = '';
    const code = internalError('lint', 'a string', false, {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
    });
    expect(code).toBe(1);
    expect(stderr).toBe('chaoslua lint: internal error: a string (rerun with --debug for the stack trace)\n');
  });
});
