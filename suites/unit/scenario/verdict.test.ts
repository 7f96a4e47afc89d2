import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../../src/cluster/errors.ts';
import type { LocalCluster } from '../../../src/cluster/local.ts';
import {
  histogramBucketQuantile,
  metricSum,
  runScenario,
  withoutRemediation,
  type ClusterPool,
  type Scenario,
} from '../../../src/scenario/index.ts';

// How a scenario's result is decided, without a cluster: the variants here return observations
// directly, and the "cluster" only counts heals. The real scenarios against a real cluster are
// suites/scenarios (cli.test.ts in npm test, the whole table in test:full).

interface Seen {
  readonly duplicates: number;
}

function poolWith(heal: () => Promise<void> = async () => undefined) {
  const heals: string[] = [];
  const cluster = { heal: async () => (heals.push('heal'), heal()) } as unknown as LocalCluster;
  return { pool: { get: async () => cluster } as unknown as ClusterPool, heals };
}

function scenario(
  broken: () => Promise<Seen>,
  remediated: () => Promise<Seen>,
  documented: (o: Seen) => string[] = () => [],
): Scenario<Seen> {
  return {
    name: 'double-charge',
    title: 'a retried request runs twice',
    row: 'test row',
    cluster: {},
    fault: 'none',
    observe: 'two executions',
    metric: 'duplicates',
    broken: { label: 'broken', source: 'broken.ts', run: broken },
    remediated: { label: 'fixed', source: 'fixed.ts', run: remediated },
    judge: (o) => ({ held: o.duplicates === 0, why: `${o.duplicates} duplicate(s)` }),
    documented,
    metricValue: (o) => o.duplicates,
  };
}

const observe = (duplicates: number) => async () => ({ duplicates });

describe('runScenario decides a scenario from its two slots', () => {
  it('as documented: the broken variant breaks the guarantee, the remediation holds; a heal after each slot', async () => {
    const { pool, heals } = poolWith();
    const r = await runScenario(scenario(observe(2), observe(0)), { pool, seed: 1 });
    expect(r.passed).toBe(true);
    expect(r.problems).toEqual([]);
    expect([r.broken.held, r.remediated.held]).toEqual([false, true]);
    expect([r.broken.metric.value, r.remediated.metric.value]).toEqual([2, 0]);
    expect(heals).toHaveLength(2);
  });

  it('not as documented when the broken variant does not fail, or fails without the documented symptom', async () => {
    const held = await runScenario(scenario(observe(0), observe(0)), { pool: poolWith().pool, seed: 1 });
    expect(held.passed).toBe(false);
    expect(held.problems).toEqual(['the broken variant did not fail: 0 duplicate(s)']);
    const quiet = await runScenario(
      scenario(observe(1), observe(0), (o) => (o.duplicates >= 2 ? [] : ['only one duplicate'])),
      { pool: poolWith().pool, seed: 1 },
    );
    expect(quiet.problems).toEqual(['the broken variant did not show the documented symptom: only one duplicate']);
  });

  it('not as documented when the remediation does not hold, or with it taken out', async () => {
    const r = await runScenario(scenario(observe(2), observe(1)), { pool: poolWith().pool, seed: 1 });
    expect(r.problems).toEqual(['the remediation did not hold: 1 duplicate(s)']);
    const removed = await runScenario(withoutRemediation(scenario(observe(2), observe(0))), {
      pool: poolWith().pool,
      seed: 1,
    });
    expect(removed.passed).toBe(false);
    expect(removed.remediated.variant).toBe('broken');
  });

  it('a crashing step is a problem of the scenario, still followed by a heal', async () => {
    const { pool, heals } = poolWith();
    const r = await runScenario(
      scenario(async () => {
        throw new Error('boom');
      }, observe(0)),
      { pool, seed: 1 },
    );
    expect(r.passed).toBe(false);
    expect(r.problems).toEqual(['the broken variant crashed: Error: boom']);
    expect(r.broken.metric.value).toBeNull();
    expect(heals).toHaveLength(2);
  });

  it('an environment failure is thrown, never reported as a scenario result', async () => {
    const env = scenario(async () => {
      throw new EnvironmentError('no cluster');
    }, observe(0));
    await expect(runScenario(env, { pool: poolWith().pool, seed: 1 })).rejects.toBeInstanceOf(EnvironmentError);
    const unhealed = poolWith(async () => {
      throw new Error('slots unassigned');
    });
    await expect(runScenario(scenario(observe(2), observe(0)), { pool: unhealed.pool, seed: 1 })).rejects.toThrow(
      /did not recover after double-charge \(broken\): slots unassigned/,
    );
  });
});

describe('the metrics a scenario reads', () => {
  const text = [
    '# HELP idempotency_noscript_total fallbacks',
    'idempotency_noscript_total{script="register"} 2',
    'idempotency_noscript_total{script="complete"} 3',
    'idempotency_other_total 7',
    'lat_bucket{le="0.01"} 5',
    'lat_bucket{le="0.1"} 9',
    'lat_bucket{le="+Inf"} 10',
  ].join('\n');

  it('metricSum adds every label set, or those with the labels asked', () => {
    expect(metricSum(text, 'idempotency_noscript_total')).toBe(5);
    expect(metricSum(text, 'idempotency_noscript_total', { script: 'complete' })).toBe(3);
    expect(metricSum(text, 'missing_total')).toBe(0);
  });

  it('histogramBucketQuantile gives the bucket holding the quantile, null without samples', () => {
    expect(histogramBucketQuantile(text, 'lat', 0.5)).toBe(0.01);
    expect(histogramBucketQuantile(text, 'lat', 0.9)).toBe(0.1);
    expect(histogramBucketQuantile(text, 'lat', 0.99)).toBe(Infinity);
    expect(histogramBucketQuantile('', 'lat', 0.5)).toBeNull();
  });
});
