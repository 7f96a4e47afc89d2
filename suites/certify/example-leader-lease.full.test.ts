import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// examples/patterns/leader-lease through the CLI, as a team runs it: `certify --pattern` of its
// pattern file (which imports 'chaoslua/pattern' from the example's own node_modules, installed by
// bootstrap --examples) certifies the reference scripts and the alternative, and rejects each mutant
// on two seeds of the sweep in bench/results/pattern-examples.md. One cluster per job and no
// shrinking: a verdict is what this checks. Wall time: see the describe's comment.

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = 'examples/patterns/leader-lease';
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** One CLI job; the exit code and everything it printed. */
function certify(impl: string, seed: number, runs: number): Promise<{ code: number | null; out: string }> {
  const report = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-leader-lease-'));
  roots.push(report);
  const args = ['certify', '--pattern', `${EXAMPLE}/pattern.mjs`, '--impl', `lua:${EXAMPLE}/${impl}`];
  args.push(
    '--seed',
    String(seed),
    '--runs',
    String(runs),
    '--clusters',
    '1',
    '--shrink-runs',
    '0',
    '--no-corpus',
    '--report',
    report,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/chaoslua.mjs', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

// Concurrent (vitest runs five at a time): a job mostly waits (its cluster starting, leases running out), so
// five cost little more than one: 68 s for the file measured alone (one after another: 5 min 0 s).
describe.concurrent('the leader-lease example, through certify --pattern', () => {
  it.each([
    ['lua', 'the reference scripts (one hash)'],
    ['alternative', 'the alternative (one JSON record)'],
  ])('certifies %s: %s', { timeout: 300_000 }, async (impl) => {
    const r = await certify(impl, 20261207, 6);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^chaoslua certify: PASSED — leader-lease/m);
    expect(r.out).toMatch(/evidence: transitions 5\/5 witnessed/);
  });

  // Each mutant with the invariants it may be caught by first, on two seeds the sweep saw it
  // rejected at its first run.
  const MUTANTS: [string, RegExp, [number, number]][] = [
    ['counter-expires-with-lease', /fencing-tokens-increase/, [1000, 8919]],
    ['resign-deletes-key', /fencing-tokens-increase/, [8919, 111866]],
    ['renew-ignores-deadline', /only-leader-acts/, [40595, 119785]],
    ['campaign-inverted-deadline', /one-leader|fencing-tokens-increase|model-conformance/, [1000, 8919]],
    ['resign-by-anyone', /only-leader-acts/, [1000, 8919]],
  ];
  describe.each(MUTANTS)('rejects mutants/%s', (mutant, invariants, seeds) => {
    it.each(seeds)('on seed %i', { timeout: 300_000 }, async (seed) => {
      const r = await certify(`mutants/${mutant}`, seed, 10);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/^chaoslua certify: FAILED — leader-lease/m);
      const failed = r.out.match(/^ {2}FAIL ([a-z-]+):/m)?.[1];
      expect(failed, r.out).toMatch(invariants);
    });
  });
});
