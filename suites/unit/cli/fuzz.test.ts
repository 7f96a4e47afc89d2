import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

// Every CLI command driven with malformed argument vectors: each answers with a usage error
// (exit 2), one line or the usage text, never a stack trace, and never starts a cluster.

const COMMANDS: Record<string, readonly string[]> = {
  certify: [''],
  run: [''],
  replay: [''],
  lint: [''],
  scenario: ['run', 'list'],
  report: ['open', 'serve'],
  cluster: ['up'],
};

const STRING_FLAGS = [
  '--pattern',
  '--runs',
  '--seed',
  '--path',
  '--faults',
  '--time-limit',
  '--clients',
  '--keys',
  '--cluster',
  '--report',
  '--node-timeout',
  '--shrink-runs',
  '--shrink-time',
  '--impl',
  '--reruns',
  '--port',
  '--masters',
  '--replicas',
];
const BOOLEAN_FLAGS = ['--json', '--allow-destructive', '--no-lint', '--no-rerun', '--all'];
const KNOWN = new Set([...STRING_FLAGS, ...BOOLEAN_FLAGS, '--help', '-h', '--debug', '--version', '-v']);

/** Values that are wrong for whichever flag takes them. */
const badValue = fc.oneof(
  fc.constantFrom(
    '-1',
    '0',
    '',
    ' ',
    '1e3',
    'NaN',
    'many',
    '99999999999999999999',
    'all,gremlins',
    'ftp://x',
    'lua:',
    'cmd:',
    'module:',
    'python:x',
    '\u0000',
    '=',
    'none,all',
  ),
  fc.string({ maxLength: 8 }).filter((s) => !/^\d+$/.test(s)),
);

/** Plausible arguments around the malformed one (they may be valid on their own). */
const plausible = fc.oneof(
  fc.tuple(fc.constantFrom(...BOOLEAN_FLAGS)).map((t) => [...t]),
  fc
    .tuple(fc.constantFrom('--runs', '--seed', '--clients', '--keys'), fc.constantFrom('1', '2', '40'))
    .map((t) => [...t]),
  fc
    .tuple(
      fc.constantFrom('--impl'),
      fc.constantFrom('lua:lua/idempotency', 'module:examples/reference-module/store.ts', 'cmd:python3 x.py'),
    )
    .map((t) => [...t]),
  fc.tuple(fc.constantFrom('--faults'), fc.constantFrom('all', 'none', 'latency,timeout')).map((t) => [...t]),
  fc.tuple(fc.constantFrom('--pattern'), fc.constantFrom('idempotency', 'lock', 'ratelimit')).map((t) => [...t]),
);

/** The argument that makes the vector malformed for every command. */
const malformed = fc.oneof(
  // A flag no command has.
  fc
    .stringMatching(/^--[a-z][a-z-]{2,12}$/)
    .filter((f) => !KNOWN.has(f))
    .map((f) => [f]),
  // A value-taking flag given without its value, at the end.
  fc.constantFrom(...STRING_FLAGS).map((f) => [f]),
  // A short option nobody defines.
  fc.constantFrom('-x', '-q', '-Z').map((f) => [f]),
);

const vector = fc
  .record({
    command: fc.constantFrom(...Object.keys(COMMANDS)),
    sub: fc.nat(),
    before: fc.array(plausible, { maxLength: 3 }),
    bad: malformed,
    // Bad values of known flags before the malformed argument: whichever is rejected first, it is rejected.
    values: fc.array(fc.tuple(fc.constantFrom(...STRING_FLAGS), badValue), { maxLength: 2 }),
  })
  .map(({ command, sub, before, bad, values }) => {
    const subs = COMMANDS[command];
    const head = subs[sub % subs.length] === '' ? [command] : [command, subs[sub % subs.length]];
    return [...head, ...before.flat(), ...values.flatMap(([f, v]) => [`${f}=${v}`]), ...bad];
  });

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the CLI under malformed argument vectors', () => {
  it('answers exit 2 with one line (or the usage text), no stack trace, no cluster', async () => {
    await fc.assert(
      fc.asyncProperty(vector, async (argv) => {
        const r = await cli(argv);
        const lines = r.stderr.trim().split('\n');
        expect(r.stderr + r.stdout).not.toMatch(STACK_FRAME);
        expect(r.code, `${JSON.stringify(argv)} -> ${r.stderr}`).toBe(2);
        expect(lines.length === 1 || /^usage:/.test(r.stderr + r.stdout), r.stderr).toBe(true);
        expect(attempts, JSON.stringify(argv)).toEqual([]);
      }),
      { numRuns: 300, seed: 20_261_201 },
    );
  });

  it('the vectors reach every command and every kind of malformed argument', () => {
    const seen = new Set(fc.sample(vector, { numRuns: 300, seed: 20_261_201 }).map((argv) => argv[0]));
    expect([...seen].sort()).toEqual(Object.keys(COMMANDS).sort());
  });
});
