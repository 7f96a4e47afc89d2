/**
 * `npm run test:full`: no scenario is decorative. With its remediation taken out (the broken variant
 * run in the remediated slot) each one reports failure. One pool of clusters serves the whole file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../scenarios/catalogue.ts';
import { ClusterPool, runScenario, withoutRemediation, type ScenarioResult } from '../../src/scenario/index.ts';

const pool = new ClusterPool();
afterAll(() => pool.dispose());

const explain = (r: ScenarioResult) => `${r.name}: ${r.problems.join('; ') || 'no problems'}`;

describe('with its remediation removed, each scenario reports failure', () => {
  for (const scenario of SCENARIOS) {
    it(scenario.name, async () => {
      const result = await runScenario(withoutRemediation(scenario), { pool });
      expect(result.remediated.error, result.remediated.error).toBeUndefined();
      expect(result.remediated.held, explain(result)).toBe(false);
      expect(result.passed).toBe(false);
      expect(result.problems.some((p) => p.startsWith('the remediation did not hold'))).toBe(true);
    });
  }
});
