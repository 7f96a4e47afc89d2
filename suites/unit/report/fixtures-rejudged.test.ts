import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { readCounterexample } from '../../../src/report/counterexample.ts';

// The report fixtures (suites/report/fixtures) hold verdicts the checker gave when they were
// captured. The report tests render those verdicts; this test re-judges each recorded history with
// today's checker, so a fixture never keeps showing a verdict the checker would no longer give.

const ROOT = path.resolve(import.meta.dirname, '../../report/fixtures');
const counterexamples = readdirSync(ROOT)
  .map((folder) => path.join(ROOT, folder, 'counterexample.json'))
  .filter((file) => existsSync(file));

describe('report fixtures, re-judged', () => {
  it('there are counterexamples to re-judge', () => {
    expect(counterexamples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(counterexamples.map((file) => [path.basename(path.dirname(file)), file]))(
    '%s: the same verdict and invariants today',
    (_, file) => {
      const ce = readCounterexample(file);
      const pattern = PATTERNS[ce.pattern as keyof typeof PATTERNS];
      expect(pattern, `pattern ${ce.pattern}`).toBeDefined();
      const today = check(ce.history, pattern);
      expect(today.verdict).toBe(ce.result.verdict);
      const names = (violations: readonly { invariant: string }[]) =>
        [...new Set(violations.map((v) => v.invariant))].sort();
      expect(names(today.violations)).toEqual(names(ce.result.violations));
    },
  );
});
