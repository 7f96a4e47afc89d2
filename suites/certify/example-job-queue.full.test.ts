import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm run test:full`: examples/patterns/job-queue through the CLI, as a team runs it: its pattern
// file (which imports 'chaoslua/pattern' from the example's own node_modules, installed by
// `bootstrap --examples`) certifies the reference and the alternative layout (4 runs each) and
// rejects each of its five mutants on two seeds of the sweep in bench/results/pattern-examples.md
// (each rejected there on 20 seeds of 20 within 8 runs; 10 allowed here, no shrinking). The jobs run
// concurrently (each certify costs about 21 s, 17 of them before its first run): one at a time, two
// seeds per mutant took 272 s.

const ROOT = path.resolve(import.meta.dirname, '../..');
const bin = path.join(ROOT, 'bin/chaoslua.mjs');
const EXAMPLE = path.join(ROOT, 'examples/patterns/job-queue');
const MUTANTS = [
  'claim-stores-timeout',
  'claim-lease-in-seconds',
  'ack-any-worker',
  'claim-deletes-job',
  'ack-deletes-job',
];
const SEEDS = [1000, 8919];
const SEEDS_PER_MUTANT = 2;
/** The mutants' seeds, taken in turn from the sweep's first two: each mutant meets one of them, and both are used. */
const cases = MUTANTS.flatMap((m, i) =>
  Array.from({ length: SEEDS_PER_MUTANT }, (_, j) => [m, SEEDS[(i + j) % SEEDS.length]] as const),
);
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function certify(impl: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const report = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-job-queue-'));
  roots.push(report);
  // No corpus: the default one (beside the implementation) would carry one mutant's counterexample into the next job.
  const child = spawn(
    process.execPath,
    [
      bin,
      'certify',
      '--pattern',
      path.join(EXAMPLE, 'pattern.mjs'),
      '--impl',
      `lua:${impl}`,
      '--clusters',
      '2',
      '--no-corpus',
      '--report',
      report,
      ...args,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 },
  );
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe.concurrent('examples/patterns/job-queue through the CLI', () => {
  beforeAll(() => {
    // Installed by `npm run test:full`'s bootstrap (scripts/bootstrap-examples.sh): a missing install is a failure, not a skip.
    expect(
      fs.existsSync(path.join(EXAMPLE, 'node_modules/chaoslua/package.json')),
      'run scripts/bootstrap-examples.sh first',
    ).toBe(true);
  });

  it.each([
    ['the reference (one hash)', 'lua'],
    ['the alternative (one JSON document)', 'alternative'],
  ])('certifies %s', { timeout: 300_000 }, async (_, dir) => {
    const r = await certify(path.join(EXAMPLE, dir), ['--runs', '4', '--seed', '20261206']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^chaoslua certify: PASSED — job-queue/m);
    for (const name of ['one-worker-per-job', 'acked-never-redelivered', 'no-job-lost', 'model-conformance'])
      expect(r.out).toMatch(new RegExp(`^  ok   ${name}$`, 'm'));
  });

  it.each(cases)('rejects the mutant %s (seed %d)', { timeout: 300_000 }, async (mutant, seed) => {
    const r = await certify(path.join(EXAMPLE, 'mutants', mutant), [
      '--runs',
      '10',
      '--seed',
      String(seed),
      '--shrink-runs',
      '0',
    ]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/^chaoslua certify: FAILED — job-queue/m);
    // A violation of the model, named: not an error of the harness or the environment.
    expect(r.out).toMatch(/^ {2}FAIL (one-worker-per-job|acked-never-redelivered|no-job-lost|model-conformance): /m);
  });
});
