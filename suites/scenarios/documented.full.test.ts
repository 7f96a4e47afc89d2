/**
 * `npm run test:full`: the failure table reproduced: every scenario behaves as documented (its broken
 * variant fails the way the seed's row says, its remediation holds). That none is decorative (with
 * the remediation taken out, each reports failure) is scenarios.full.test.ts. `npm test` runs one
 * scenario end to end through the CLI (cli.test.ts).
 * One pool of clusters serves the whole file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../scenarios/catalogue.ts';
import { ClusterPool, runScenarios, type ScenarioResult } from '../../src/scenario/index.ts';

const pool = new ClusterPool();
afterAll(() => pool.dispose());

const explain = (r: ScenarioResult) => `${r.name}: ${r.problems.join('; ') || 'no problems'}`;

describe('chaoslua scenario run --all, in-process', () => {
  it('every scenario behaves as documented', async () => {
    const results = await runScenarios(SCENARIOS, { pool });
    expect(results.map((r) => r.name)).toEqual(SCENARIOS.map((s) => s.name));
    for (const r of results) {
      expect(r.passed, explain(r)).toBe(true);
      expect(r.broken.held, explain(r)).toBe(false);
      expect(r.remediated.held, explain(r)).toBe(true);
    }
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    // The figures the brief asks for, as the seed's rows state them.
    expect(byName['stale-completion'].remediated.metric.value).toBe(1);
    expect(byName['stale-completion'].broken.metric.value).toBe(0);
    expect(byName['noscript-after-failover'].broken.metric.value).toBe(0);
    expect(byName['noscript-after-failover'].remediated.metric.value).toBeGreaterThan(0);
    expect((byName['lease-outlived'].broken.observations as { executions: number }).executions).toBe(2);
    expect((byName['lease-outlived'].remediated.observations as { executions: number }).executions).toBe(1);
    expect(byName['lease-outlived'].broken.metric.value).toBeGreaterThan(0);
    expect((byName['lossy-failover'].broken.observations as { check: { verdict: string } }).check.verdict).toBe(
      'replication-loss',
    );
    expect((byName['unbounded-body'].broken.observations as { evictedKeys: number }).evictedKeys).toBeGreaterThan(0);
    const slow = byName['slow-script'].broken.observations as {
      measured: { scriptMs: number; probe: { maxMs: number } };
    };
    // Wide, load-proof margin: an unrelated PING waits for most of the script, never an upper bound on speed.
    expect(slow.measured.probe.maxMs).toBeGreaterThanOrEqual(slow.measured.scriptMs / 2);
    expect(byName['hot-slot'].broken.metric.value).toBe(1);
  }, 300_000);
});
