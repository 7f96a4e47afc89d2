import { describe, expect, it } from 'vitest';
import { describeFailure, referenceChaos } from '../../../src/certify/reference-chaos.ts';
import { FAULT_NAMES, type FaultName } from '../../../src/generator/index.ts';
import { PATTERNS, type PatternName } from '../../../src/patterns/index.ts';
import { withSharedCluster } from '../../support/shared-cluster.ts';

export type FalseAlarmRuns = Readonly<Record<PatternName, { readonly runs: number; readonly seed: number }>>;

/**
 * The correct implementations must pass every seeded run with every fault enabled. `npm test` runs
 * a few per pattern (zero-false-alarms.test.ts; other suites certify the reference again through
 * lua:, module: and cmd:), `npm run test:full` many (zero-false-alarms.full.test.ts), and
 * `npx tsx bench/soak.ts` runs until a time limit (hundreds of runs per pattern: see README).
 */
export function falseAlarmSuite(
  plan: FalseAlarmRuns,
  faults: { readonly names: readonly FaultName[]; readonly said: string } = { names: FAULT_NAMES, said: 'all faults' },
): void {
  describe(`zero false alarms: the reference implementations pass under ${faults.said}`, () => {
    for (const [pattern, { runs, seed }] of Object.entries(plan) as [PatternName, FalseAlarmRuns[PatternName]][]) {
      it(
        `${pattern}: ${runs} seeded runs (seed ${seed}), ${faults.said}`,
        async () => {
          const outcome = await withSharedCluster((cluster) =>
            referenceChaos(cluster, { pattern: PATTERNS[pattern], runs, seed, faults: [...faults.names] }),
          );
          expect(outcome.failure, describeFailure(outcome)).toBeUndefined();
          expect(outcome.tally.runs).toBe(runs); // judged, not discarded
          // Judged runs, not only the absence of failure: a job whose every run was discarded proves nothing.
          expect(outcome.tally.runs, `${outcome.tally.discarded} of ${runs} runs discarded`).toBeGreaterThan(0);
          expect(outcome.tally.faults).toBeGreaterThan(0);
        },
        120_000 + runs * 30_000,
      );
    }
  });
}
