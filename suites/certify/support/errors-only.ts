import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runJob } from '../../../src/certify/job.ts';
import { cmdOpener } from '../../../src/certify/openers/cmd.ts';
import { luaDirOpener } from '../../../src/certify/openers/lua-dir.ts';
import { moduleOpener } from '../../../src/certify/openers/module.ts';
import type { ImplOpener } from '../../../src/certify/types.ts';
import type { PatternName } from '../../../src/patterns/index.ts';
import { withSharedCluster } from '../../support/shared-cluster.ts';
import { certifyOptions, quietIo } from '../fixtures/process/job.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

// Implementations that never do anything, shared by bad-implementations.test.ts (one
// pattern, `npm test`) and bad-implementations.full.test.ts (the others, `npm run test:full`).

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/bad-impls');
export const ERRORS_ONLY_CMD = `${process.execPath} ${FIXTURES}/errors-only.mjs`;

/** certify's own job (runJob) on the shared cluster: a few runs, every fault. */
export const job = (pattern: PatternName, open: ImplOpener, runs = 3) =>
  withSharedCluster((cluster) =>
    runJob(
      certifyOptions({ pattern, runs: String(runs), seed: '11', faults: 'all', 'shrink-runs': '0' }),
      open,
      quietIo,
      cluster,
    ),
  );

/** A junit.xml case: name and failure message, if failed. */
export const junitCase = (dir: string, name: string) =>
  new RegExp(`name="${name}"[^>]*>\\s*<failure message="([^"]*)"`).exec(
    fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'),
  )?.[1];

/** The three kinds of implementation, each erroring on every operation. */
export const ERRORS_ONLY_KINDS: readonly (readonly [string, (p: PatternName) => ImplOpener])[] = [
  [
    'lua: scripts that return an error reply',
    (p) => luaDirOpener(PATTERNS[p], path.join(FIXTURES, 'errors-only-lua', p), `lua:errors-only-${p}`),
  ],
  [
    'module: a store whose calls all throw',
    (p) => moduleOpener(PATTERNS[p], path.join(FIXTURES, 'errors-only-store.ts')),
  ],
  ['cmd: a program that answers every request with an error', (p) => cmdOpener(PATTERNS[p], ERRORS_ONLY_CMD)],
];

export const errorsOnlyCases = (patterns: readonly PatternName[], kinds = ERRORS_ONLY_KINDS) =>
  kinds.flatMap(([kind, open]) => patterns.map((p) => [`${kind} (${p})`, p, open] as const));

/** Nothing happened, so nothing was violated: only the evidence rule keeps it from a certificate. */
export async function expectNeverCertified(pattern: PatternName, open: ImplOpener): Promise<void> {
  const result = await job(pattern, open);
  const issued = result.evidence.operations.reduce((n, o) => n + o.issued, 0);
  expect(issued).toBe(result.outcome.tally.ops);
  expect(issued).toBeGreaterThan(0);
  expect(result.outcome.tally.runs).toBe(3);
  expect(result.invariants.every((s) => s.passed)).toBe(true);
  expect(result.findings).toEqual([
    `evidence: no operation succeeded: 0 of ${issued} ok (a budget of 3 runs may be too small for the evidence a certificate needs: the thresholds hold with the default 40)`,
  ]);
  expect(result.passed).toBe(false);
  expect(junitCase(result.dir, 'evidence')).toMatch(/^evidence: no operation succeeded: 0 of \d+ ok/);
}
