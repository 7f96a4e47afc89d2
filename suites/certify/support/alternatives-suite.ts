import { describe, expect, it } from 'vitest';
import { PATTERN_NAMES } from '../../../src/patterns/index.ts';
import { lintPath } from '../../../src/lint/index.ts';
import { withSharedCluster } from '../../support/shared-cluster.ts';
import { loadAlternatives } from './catalogue.ts';
import { chaosJob, openerFor } from './job.ts';

/**
 * Alternative but correct implementations (scenarios/alternatives), written with other commands and
 * data types than the reference: the chaos job judges behaviour, not text, so each must pass every
 * run under every fault (alternatives.full.test.ts, `npm run test:full`).
 */
export function alternativesSuite(runs: number, seed: number): void {
  const alternatives = loadAlternatives();

  describe(`alternative implementations are certified (${runs} runs each, seed ${seed})`, () => {
    it('there is at least one per pattern', () => {
      expect(new Set(alternatives.map((a) => a.pattern))).toEqual(new Set(PATTERN_NAMES));
    });

    // certify lints lua: scripts before any schedule and rejects on a finding: a rule that misreads
    // correct code (HSETNX creating the record, `EXISTS == 1 then return`) would be a false alarm.
    it.each(alternatives.filter((a) => a.kind === 'lua').map((a) => [`${a.pattern}/${a.name}`, a] as const))(
      '%s passes the linter certify runs first',
      async (_, a) => {
        expect(await lintPath(a.impl)).toEqual([]);
      },
    );

    it.each(alternatives.map((a) => [`${a.pattern}/${a.name} (${a.kind})`, a] as const))(
      '%s',
      async (_, a) => {
        const verdict = await withSharedCluster((cluster) =>
          chaosJob(cluster, a.pattern, openerFor(a.pattern, a.kind, a.impl), { seed, runs, shrinkRuns: 3 }),
        );
        console.log(
          `${a.pattern}/${a.name}: ${verdict.runs} runs, ${verdict.seconds.toFixed(1)} s, verdict ${verdict.verdict}\n  ${verdict.messages[0] ?? ''}`,
        );
        expect(verdict.messages).toEqual([]);
        expect(verdict.rejected).toBe(false);
        expect(verdict.runs).toBe(runs);
      },
      120_000 + runs * 30_000,
    );
  });
}
