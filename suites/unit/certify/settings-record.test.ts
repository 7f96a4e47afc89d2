// The settings travel with the job: what certify writes (certificate.json, result.json, the summary
// and the report's header with its re-run command) names the settings the sessions drew with, and
// a counterexample's schedule carries them in every hit, so replay and the corpus re-run it with them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobOptionsFrom } from '../../../src/certify/options.ts';
import { resultJson, summaryText } from '../../../src/certify/summary.ts';
import type { JobOptions, JobResult } from '../../../src/certify/types.ts';
import { certificate } from '../../../src/cli/certify.ts';
import { scheduleArbitrary } from '../../../src/generator/index.ts';
import { exactCapabilities } from '../../../src/patterns/capabilities.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { renderHeader, replayCommand } from '../../../src/report/html/header.ts';
import type { RunSummary } from '../../../src/report/html/data.ts';
import { parseImplSpec } from '../../../src/impl/impl-spec.ts';

/** A finished job of 2 runs, nothing failed: what the record is written from. */
function finished(options: JobOptions): JobResult {
  const tally = {
    runs: 2,
    shrinks: 0,
    discarded: 0,
    discardCauses: [],
    ops: 10,
    faults: 0,
    failures: 0,
    replicationLosses: 0,
    faultCounts: {},
  };
  return {
    passed: true,
    dir: '/tmp/r',
    outcome: { tally, seed: options.seed, ms: 1_000, interrupted: false, shortOfRuns: false },
    invariants: options.pattern.invariants.map((invariant) => ({ invariant, passed: true, violations: [] })),
    findings: [],
    impl: 'lua:lua/ratelimit',
    redisVersion: '7.0.15',
    topology: 'n0 master 0-16383',
    evidence: {
      runs: 2,
      operations: [{ op: 'hit', issued: 10, ok: 10, fail: 0, info: 0 }],
      transitions: {},
      minOkPerOperation: 1,
      missing: [],
    },
    skippedFaults: [],
    incomplete: false,
    probeNotes: [],
    capabilities: exactCapabilities(options.pattern),
    duplicateEffects: {},
    duplicateFindings: [],
    lanes: 1,
  };
}

const options = jobOptionsFrom('certify', { pattern: 'ratelimit', seed: 1303, runs: 2, settings: { window: 3 } });
const spec = parseImplSpec('lua:lua/ratelimit', PATTERNS.ratelimit);

describe("a job's settings in what it writes", () => {
  it('the certificate records every setting, the defaults filled', () => {
    expect(certificate(options, spec, finished(options)).settings).toEqual({ limit: 3, window: 3 });
    const defaults = jobOptionsFrom('certify', { pattern: 'ratelimit', seed: 1 });
    expect(certificate(defaults, spec, finished(defaults)).settings).toEqual({ limit: 3, window: 1 });
    const lock = jobOptionsFrom('certify', { pattern: 'lock', seed: 1 });
    expect(certificate(lock, parseImplSpec('lua:lua/lock', PATTERNS.lock), finished(lock)).settings).toEqual({
      lease: 250,
      lease2: 500,
    });
  });

  it("a shard's certificate names them in its plan", () => {
    const shard = { ...options, shard: { index: 0, count: 2 } };
    expect(certificate(shard, spec, finished(shard)).shard?.plan).toMatch(/; settings limit=3 window=3$/);
  });

  it("result.json, the summary and the report header name them; the header's re-run command passes them", () => {
    const result = resultJson(options, finished(options));
    expect(result.settings).toEqual({ limit: 3, window: 3 });
    expect(summaryText(options, finished(options)).split('\n')[0]).toBe(
      'chaoslua certify: PASSED — ratelimit, lua:lua/ratelimit, settings limit=3 window=3',
    );
    const data = { dir: 'reports/x', result: result as RunSummary };
    expect(renderHeader(data)).toContain('<dt>settings</dt><dd>limit=3 window=3</dd>');
    expect(replayCommand(data).command).toBe(
      'chaoslua certify --impl lua:lua/ratelimit --pattern ratelimit --seed 1303 --runs 2 --set limit=3 --set window=3',
    );
  });

  it('the summary and the certificate count the clusters the runs were dealt to, not the ones --clusters asked for', () => {
    // A job handed one cluster (as tests that share one do) runs one lane whatever --clusters says.
    const asked = { ...options, clusters: 4 };
    expect(summaryText(asked, finished(asked))).not.toMatch(/clusters/);
    const spread = { ...finished(asked), lanes: 4 };
    expect(summaryText(asked, spread)).toContain(' · 4 clusters');
  });

  it("a counterexample's schedule holds them in every hit: replay and the corpus re-run it as drawn", () => {
    // The counterexample stores the schedule whole (src/report/counterexample.ts) and the job's options
    // beside it; replay and the corpus run that schedule, never a fresh draw.
    const [schedule] = fc.sample(scheduleArbitrary({ pattern: PATTERNS.ratelimit, settings: options.settings }), {
      seed: 4,
      numRuns: 1,
    });
    const inputs = schedule.clients.flat().flatMap((s) => (s.type === 'op' ? [s.input] : []));
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(input).toMatchObject({ limit: 3, windowSeconds: 3 });
    const recorded = JSON.parse(JSON.stringify({ ...options, reportRoot: undefined }));
    expect(recorded.settings).toEqual({ limit: 3, window: 3 });
  });
});
