import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintPath } from '../../src/lint/index.ts';
import { loadAlternatives } from './support/catalogue.ts';
import { chaosJob, openerFor, type JobLimits } from './support/job.ts';
import { SharedCluster } from './support/shared-cluster.ts';

// Alternative but correct implementations (scenarios/alternatives), written with other commands
// and data types than the reference: the chaos job judges behaviour, not text, so each must pass.
// Most mutants are caught in 1-2 runs (bench/mutants.ts), so 3 clean runs under every fault are a real hurdle (CI time; the soak is the long evidence).

const alternatives = loadAlternatives();
const LIMITS: JobLimits = { seed: 20_261_130, runs: 3, timeLimitMs: 150_000, shrinkRuns: 3 };

describe('alternative implementations are certified', () => {
  const shared = new SharedCluster();

  beforeAll(async () => {
    await shared.get();
  });

  afterAll(async () => {
    await shared.dispose();
  });

  it('there is at least one per pattern', () => {
    expect(new Set(alternatives.map((a) => a.pattern))).toEqual(new Set(['idempotency', 'lock', 'ratelimit']));
  });

  // certify lints lua: scripts before any schedule and rejects on a finding: a rule that misreads
  // correct code (HSETNX creating the record, `EXISTS == 1 then return`) would be a false alarm.
  it.each(alternatives.filter((a) => a.kind === 'lua').map((a) => [`${a.pattern}/${a.name}`, a] as const))('%s passes the linter certify runs first', async (_, a) => {
    expect(await lintPath(a.impl)).toEqual([]);
  });

  it.each(alternatives.map((a) => [`${a.pattern}/${a.name} (${a.kind})`, a] as const))('%s', async (_, a) => {
    const verdict = await shared.withRetry((cluster) => chaosJob(cluster, a.pattern, openerFor(a.pattern, a.kind, a.impl), LIMITS));
    console.log(`${a.pattern}/${a.name}: ${verdict.runs} runs, ${verdict.seconds.toFixed(1)} s, verdict ${verdict.verdict}\n  ${verdict.messages[0] ?? ''}`);
    expect(verdict.messages).toEqual([]);
    expect(verdict.rejected).toBe(false);
    expect(verdict.runs).toBe(LIMITS.runs);
  });
});
