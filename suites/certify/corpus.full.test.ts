import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { run as corpusCli } from '../../src/cli/corpus.ts';
import { runJob } from '../../src/certify/job.ts';
import { summaryText } from '../../src/certify/summary.ts';
import { openerFor } from '../../src/certify/openers/index.ts';
import { projectRoot } from '../../src/cluster/binaries.ts';
import { readCorpus } from '../../src/corpus/store.ts';
import { countOps } from '../../src/plan/schedule.ts';
import { describeImpl, implDigest, parseImplSpec } from '../../src/impl/impl-spec.ts';
import { withSharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// The regression corpus on a real cluster: a counterexample found against a mutant is saved; the
// next certify of the same code fails on it, from the corpus, before exploring anything, whatever
// its seed; once the code is fixed (the reference), the entry replays and reports passing.

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-corpus-'));
const corpusDir = path.join(work, 'corpus');
const reports = path.join(work, 'reports');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const mutant = path.join(projectRoot, 'scenarios', 'mutants', 'lock', 'acquire-no-nx');
const reference = path.join(projectRoot, 'lua', 'lock');

/** certify's job (runJob, the production opener) with a corpus, on the shared cluster. */
async function certify(dir: string, seed: number, runs: number) {
  const spec = parseImplSpec(`lua:${dir}`, PATTERNS.lock);
  // Shrinking is kept short but on (each shrink re-run costs a run): a corpus entry is the shrunk schedule.
  const options = {
    ...jobOptions('certify', {
      pattern: 'lock',
      runs: String(runs),
      seed: String(seed),
      report: reports,
      'shrink-runs': '3',
    }),
    implSpec: describeImpl(spec),
    corpus: { dir: corpusDir, sha256: implDigest(spec, PATTERNS.lock) },
  };
  const result = await withSharedCluster((cluster) => runJob(options, openerFor(PATTERNS.lock, spec), quiet, cluster));
  return { ...result, summary: summaryText(options, result) };
}

describe('the regression corpus', () => {
  it('saves the counterexample a certify finds, with the implementation sha256, seed and path', async () => {
    // The mutant's pinned CI seed catches it early (scenarios/mutants/lock/acquire-no-nx/mutant.json).
    const result = await certify(mutant, 1000, 50);
    expect(result.passed).toBe(false);
    expect(result.corpus?.entries).toEqual([]);
    expect(result.corpus?.saved).toHaveLength(1);
    const [entry] = readCorpus(corpusDir, 'lock');
    expect(entry.file).toBe(result.corpus!.saved[0]);
    expect(entry.entry.corpus.sha256).toBe(implDigest(parseImplSpec(`lua:${mutant}`, PATTERNS.lock), PATTERNS.lock));
    expect(entry.entry.seed).toBe(1000);
    expect(entry.entry.path).toEqual(expect.any(String));
    expect(entry.entry.result.verdict).toBe('illegal');
    expect(entry.entry.implSpec).toBe(`lua:${mutant}`);
  }, 600_000);

  it.each([7, 424_242])(
    'the next certify of the same code (seed %i) fails on the corpus entry before exploring',
    async (seed) => {
      const result = await certify(mutant, seed, 50);
      expect(result.passed).toBe(false);
      expect(result.corpus?.entries.map((e) => e.status)).toEqual(['failing']);
      // The failure is the replayed entry's: no fresh schedule ran, so the seed played no part.
      expect(result.outcome.tally.runs).toBe(0);
      // A figure for the record, not a bound: how long the replay took to find it again.
      const failure = result.outcome.failure!;
      const witnessedAt = Math.max(...failure.result.violations.flatMap((v) => v.witness.map((op) => op.completedAt)));
      console.log(
        `corpus replay, seed ${seed}: failed again on attempt ${result.corpus!.entries[0].attempts}; violation witnessed ${witnessedAt.toFixed(0)} ms into the replayed run ` +
          `(${countOps(failure.schedule)} ops, ${failure.schedule.faults.length} faults); replay with heal and probes ${result.corpus!.ms.toFixed(0)} ms`,
      );
      expect(result.outcome.failure?.schedule).toEqual(readCorpus(corpusDir, 'lock')[0].entry.schedule);
      expect(result.invariants.some((s) => !s.passed)).toBe(true);
      expect(result.summary).toMatch(
        /corpus .*: 1 entry replayed first — 1 still failing, 0 now passing .*; exploration skipped/,
      );
      expect(result.summary).toMatch(/a saved counterexample failed again/);
      // Found again, not saved again.
      expect(result.corpus?.saved).toEqual([]);
      expect(readCorpus(corpusDir, 'lock')).toHaveLength(1);
      expect(fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8')).toMatch(
        /name="corpus [0-9a-f]{16}" time="[\d.]+">\s*<failure message="a saved counterexample fails again/,
      );
    },
    300_000,
  );

  it('once the code is fixed the entry reports passing, and prune removes it', async () => {
    const result = await certify(reference, 11, 2);
    expect(result.corpus?.entries.map((e) => e.status)).toEqual(['passing']);
    expect(result.summary).toMatch(/1 entry replayed first — 0 still failing, 1 now passing/);
    // The reference must pass what it explored after the corpus, too (zero false alarms).
    expect(result.outcome.failure).toBeUndefined();
    expect(result.outcome.tally.runs).toBe(2);
    const [entry] = readCorpus(corpusDir, 'lock');
    expect(entry.entry.corpus.lastReplay).toMatchObject({
      status: 'passing',
      sha256: implDigest(parseImplSpec(`lua:${reference}`, PATTERNS.lock), PATTERNS.lock),
    });

    const out: string[] = [];
    const code = await corpusCli(['prune', corpusDir], {
      stdout: { write: (s: string) => out.push(s) },
      stderr: quiet.stderr,
    });
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/removed 1 entry whose last replay passed, kept 0/);
    expect(readCorpus(corpusDir, 'lock')).toEqual([]);
  }, 300_000);
});
