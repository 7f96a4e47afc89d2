import fs, { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { runJob } from '../../src/certify/job.ts';
import { openerFor as productionOpener } from '../../src/certify/openers/index.ts';
import { projectRoot } from '../../src/cluster/binaries.ts';
import { lintPath } from '../../src/lint/index.ts';
import { PATTERNS } from '../../src/patterns/index.ts';
import { describeImpl, parseImplSpec } from '../../src/impl/impl-spec.ts';
import { acceptableNames, loadMutants, operationsOf, type Mutant } from './support/catalogue.ts';
import { chaosJob, openerFor, type JobLimits, type JobVerdict } from './support/job.ts';
import { bestSeed, observedOtherNames, readEvidence } from './support/sweep.ts';
import { generatedSection, README as MISS_RATE_README, renderMissRates } from './support/miss-rates.ts';
import { clusterLanes } from '../support/cluster-lanes.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';

// The mutant catalogue (scenarios/mutants): every mutant goes through the chaos job `certify` runs
// (lint off) and must be rejected with the invariant or finding its mutant.json expects.

const mutants = loadMutants();
const ci = mutants.filter((m) => !m.gap);
/** What `npm test` runs: the slow ones (caught, after tens of runs) are test:full's (mutants.full.test.ts). */
const quick = ci.filter((m) => !m.slow);
const gaps = mutants.filter((m) => m.gap);
const label = (m: Mutant) => `${m.pattern}/${m.name}`;

/**
 * Each CI mutant runs once, with its pinned seed (mutant.json "ciSeed"), capped in runs ("ciRuns",
 * default 50) and never in wall time, so a loaded machine runs the same schedules as an idle one.
 * The pinned seed is one the multi-seed sweep of `npm run test:full` saw catching the mutant early
 * (scenarios/mutants/sweep.json, checked below), so the default run does not hang on luck; the
 * sweep itself, over many seeds, is the evidence for each mutant's accepted names. The job ends at
 * the first catch: shrinking has its own suite (replay).
 */
const DEFAULT_CAP = 50;
const limitsFor = (m: Mutant, runs = m.ciRuns ?? DEFAULT_CAP): JobLimits => ({
  seed: m.ciSeed ?? 20_261_130,
  runs,
  shrinkRuns: 0,
});
// A hang guard, not a speed bound: a run of the job never takes near 30 s.
const timeoutFor = (limits: JobLimits) => 120_000 + limits.runs * 30_000;

/** Every operation of every registered pattern needs a mutant the CI run kills. */
const OPERATIONS: Record<string, string[]> = Object.fromEntries(
  Object.entries(PATTERNS).map(([name, p]) => [name, Object.keys(p.operations)]),
);
const SCRIPT_OPERATION: Record<string, string> = {
  'register_or_get.lua': 'register',
  'complete.lua': 'complete',
  'release.lua': 'release',
  'renew.lua': 'renew',
  'acquire.lua': 'acquire',
  'remove_if_matches.lua': 'release',
  'extend_if_matches.lua': 'extend',
  'fixed_window.lua': 'hit',
  'gcra.lua': 'hit',
  'refresh.lua': 'refresh',
};
const luaMutants = mutants.filter((m) => m.kind === 'lua');
const referenceDir = (m: Mutant) => path.join(projectRoot, 'lua', m.pattern);
const byName = (name: string) => mutants.find((m) => label(m) === name)!;

describe('the catalogue', () => {
  // CI runs the quick mutants here and the slow ones in test:full: together they cover every operation.
  it('has a mutant the CI run kills for every operation of every pattern', () => {
    for (const [pattern, operations] of Object.entries(OPERATIONS)) {
      const covered = new Set(ci.filter((m) => m.pattern === pattern).flatMap(operationsOf));
      expect([...covered], pattern).toEqual(expect.arrayContaining(operations));
    }
  });

  it.each(luaMutants.map((m) => [label(m), m] as const))('%s is the reference with one script changed', (_, m) => {
    const changed = readdirSync(referenceDir(m))
      .filter((file) => file.endsWith('.lua') && file !== 'library.lua')
      .filter(
        (file) =>
          readFileSync(path.join(referenceDir(m), file), 'utf8') !== readFileSync(path.join(m.impl, file), 'utf8'),
      );
    expect(changed).toEqual([m.mutated]);
    expect(SCRIPT_OPERATION[m.mutated!]).toBe(m.operation);
  });

  // Expectations from evidence, not from luck: scenarios/mutants/sweep.json holds the multi-seed
  // sweep of `npm run test:full`; a swept mutant's accepted names and pinned seed are derived from it
  // (suites/certify/support/derive-expectations.ts) and must still agree with it. A mutant not in the
  // evidence yet has no pinned seed (it runs on the suite's default seed) and keeps the orNamed the
  // bench/mutants.ts jobs of the README's table gave it.
  it("each CI mutant in the evidence is pinned to the sweep's earliest catching seed and accepts exactly the names the sweep saw", () => {
    const evidence = readEvidence();
    const unswept: string[] = [];
    for (const m of ci) {
      if (!evidence.mutants[label(m)]) {
        unswept.push(label(m));
        expect(m.ciSeed, `${label(m)} is not in the sweep's evidence, so it has no pinned seed`).toBeUndefined();
        continue;
      }
      const best = bestSeed(evidence, m);
      expect(
        best,
        `${label(m)}: the sweep never caught it naming ${m.expect} (re-run: ${evidence.command})`,
      ).toBeDefined();
      expect(m.ciSeed, `${label(m)}: ciSeed`).toBe(best!.seed);
      expect(
        [...(m.orNamed ?? [])].sort(),
        `${label(m)}: orNamed must be the names the sweep saw besides ${m.expect}`,
      ).toEqual(observedOtherNames(evidence, m));
    }
    if (unswept.length) console.log(`not in the sweep's evidence yet (default seed): ${unswept.join(', ')}`);
  });

  // The miss rates of the default budget are measured by the sweep and rendered from its evidence:
  // the table in scenarios/mutants/README.md must be exactly that rendering (regenerated, not typed).
  it("the README's miss-rate table is the rendering of the sweep's evidence", () => {
    const readme = readFileSync(MISS_RATE_README, 'utf8');
    expect(generatedSection(readme), 'regenerate it: npx tsx suites/certify/support/miss-rates.ts --write').toBe(
      renderMissRates(readEvidence(), loadMutants()),
    );
  });

  it('the linter flags exactly the mutants with a static defect, and not the reference', async () => {
    for (const pattern of Object.keys(OPERATIONS))
      expect(await lintPath(path.join(projectRoot, 'lua', pattern)), pattern).toEqual([]);
    const flagged: Record<string, string[]> = {};
    const declared: Record<string, string[]> = {};
    for (const m of luaMutants) {
      flagged[m.name] = [...new Set((await lintPath(m.impl)).map((f) => f.rule))].sort();
      declared[m.name] = [...m.lint!].sort();
    }
    expect(flagged).toEqual(declared);
    // Some slips are invisible to text rules: only the dynamic checks can reject those.
    expect(Object.values(flagged).filter((rules) => rules.length === 0).length).toBeGreaterThan(0);
  });
});

describe('every mutant is rejected by the chaos job', () => {
  const verdicts = new Map<string, JobVerdict>();
  let reports: string;
  // The mutants' jobs are independent: three at a time, each on a cluster of its own (the sweep that
  // pinned their seeds ran four at once, so the box is as busy as when the evidence was taken).
  const lanes = clusterLanes(3);

  beforeAll(async () => {
    reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-mutants-'));
  });

  afterAll(async () => {
    await lanes.dispose();
    if (reports) fs.rmSync(reports, { recursive: true, force: true });
  });

  async function reject(m: Mutant, limits: JobLimits): Promise<void> {
    const verdict = await lanes.run((cluster) =>
      chaosJob(cluster, m.pattern, openerFor(m.pattern, m.kind, m.impl), limits),
    );
    verdicts.set(label(m), verdict);
    const first = verdict.firstFailure;
    console.log(
      `${label(m)}: ${first ? `rejected at run ${first.run} (${first.seconds.toFixed(1)} s)` : `SURVIVED ${verdict.runs} runs`}; ` +
        `named ${verdict.named.join(', ') || '-'}; failing schedule ${verdict.shrunkOps ?? '-'} ops; job ${verdict.seconds.toFixed(1)} s` +
        `\n  ${verdict.messages[0] ?? ''}`,
    );
    expect(verdict.rejected, `${m.name} survived ${verdict.runs} runs`).toBe(true);
    // Rejected for a reason that is the mutant's: an invariant of its pattern broken, or the finding it
    // expects (not an undecided search, a short budget or an unread probe). Which neighbouring
    // invariant a slip shows first varies with timing; the names are the sweep's evidence
    // (mutants.full.test.ts), not luck in the default run.
    const reasons = [...PATTERNS[m.pattern].invariants, ...acceptableNames(m)];
    expect(
      verdict.named.filter((name) => reasons.includes(name)),
      `named ${verdict.named.join(', ')}`,
    ).not.toEqual([]);
    if (!verdict.named.some((name) => acceptableNames(m).includes(name)))
      console.log(`  note: named outside the sweep's names (${acceptableNames(m).join(', ')})`);
  }

  for (const m of quick) it.concurrent(label(m), () => reject(m, limitsFor(m)), timeoutFor(limitsFor(m)));

  it('kill rate is 100%: no mutant survives', () => {
    const rows = quick.map((m) => {
      const v = verdicts.get(label(m));
      const first = v?.firstFailure;
      return [
        label(m).padEnd(44),
        (v?.rejected ? 'killed' : 'SURVIVED').padEnd(9),
        `run ${String(first?.run ?? '-').padStart(3)}`,
        `${first ? first.seconds.toFixed(1).padStart(5) : '    -'} s`,
        `schedule ${String(v?.shrunkOps ?? '-').padStart(3)} ops`,
        v?.named.join(',') ?? '',
      ].join('  ');
    });
    const killed = quick.filter((m) => verdicts.get(label(m))?.rejected).length;
    console.log(
      `mutant catalogue: ${killed}/${quick.length} killed (${ci.length - quick.length} slow and ${gaps.length} known gaps: npm run test:full)\n${rows.join('\n')}`,
    );
    expect(quick.filter((m) => !verdicts.get(label(m))?.rejected).map((m) => m.name)).toEqual([]);
  });

  /** `certify`'s own job (runJob, the production opener) on the shared cluster. */
  async function certify(m: Mutant, runs: number) {
    const spec = parseImplSpec(`${m.kind}:${m.impl}`, PATTERNS[m.pattern]);
    const options = {
      ...jobOptions('certify', {
        pattern: m.pattern,
        runs: String(runs),
        seed: '20261130',
        report: reports,
        'shrink-runs': '0',
      }),
      implSpec: describeImpl(spec),
    };
    return withSharedCluster((cluster) =>
      runJob(
        options,
        productionOpener(PATTERNS[m.pattern], spec),
        { stdout: { write: () => true }, stderr: { write: () => true } },
        cluster,
      ),
    );
  }

  it('runJob itself rejects a mutant, naming its invariant and writing a counterexample', async () => {
    const m = byName('lock/acquire-no-nx');
    const result = await certify(m, 10);
    expect(result.passed).toBe(false);
    expect(result.invariants.find((s) => s.invariant === m.expect)?.passed).toBe(false);
    expect(result.counterexampleFile && fs.existsSync(result.counterexampleFile)).toBe(true);
  }, 150_000);
});
