/**
 * The corpus in a chaos job: replay every entry first; if one still fails, that is the job's failure
 * and nothing more is explored (the verdict is already in, and CI hears it within the entry's own
 * run); otherwise explore as usual. A fresh counterexample the job finds is saved afterwards.
 */
import type { JunitCase } from '../report/junit.ts';
import type { Counterexample } from '../report/counterexample.ts';
import type { PatternName } from '../patterns/index.ts';
import type { ChaosOutcome } from '../certify/chaos.ts';
import { replayCorpus, stillFailing, type CorpusReplay, type CorpusReplayContext } from './replay.ts';
import { readCorpus, saveEntry } from './store.ts';

/** What a job is told about its corpus: where it is and what it is testing. */
export interface CorpusOptions {
  readonly dir: string;
  /** sha256 of the implementation under test (certificate.json's). */
  readonly sha256: string;
}

export async function exploreAfterCorpus(
  corpus: CorpusOptions | undefined,
  ctx: Omit<CorpusReplayContext, 'sha256'> & { readonly pattern: PatternName; readonly seed: number },
  explore: () => Promise<ChaosOutcome>,
): Promise<{ outcome: ChaosOutcome; corpus?: CorpusReplay }> {
  if (!corpus) return { outcome: await explore() };
  const replay = await replayCorpus(corpus.dir, readCorpus(corpus.dir, ctx.pattern), { ...ctx, sha256: corpus.sha256 });
  const failing = stillFailing(replay);
  if (failing.length === 0) return { outcome: await explore(), corpus: replay };
  const tally = { runs: 0, shrinks: 0, discarded: 0, discardCauses: [], ops: 0, faults: 0, failures: failing.length, replicationLosses: 0, faultCounts: {} };
  return { outcome: { tally, failure: failing[0].failure, seed: ctx.seed, ms: replay.ms, interrupted: false, shortOfRuns: false }, corpus: replay };
}

/**
 * Saves the job's counterexample in the corpus unless it came from there (its schedule is an
 * entry's already), and returns the replay report with the entry named.
 */
export function saveFailure(corpus: CorpusOptions | undefined, replay: CorpusReplay | undefined, ce: Counterexample | undefined, runDir: string): CorpusReplay | undefined {
  if (!corpus || !ce) return replay;
  const { file, added } = saveEntry(corpus.dir, ce, corpus.sha256, runDir);
  const base = replay ?? { dir: corpus.dir, entries: [], ms: 0, saved: [] };
  return added ? { ...base, saved: [...base.saved, file] } : base;
}

/** One JUnit case per entry, so a CI dashboard shows which saved counterexample broke again. */
export function corpusCases(replay: CorpusReplay | undefined): JunitCase[] {
  return (replay?.entries ?? []).map((e) => ({
    name: `corpus ${e.id}`,
    passed: e.status !== 'failing',
    message: e.status === 'failing' ? `a saved counterexample fails again: ${e.detail}` : undefined,
    detail: e.status === 'failing' ? `chaoslua replay ${e.file}` : undefined,
  }));
}

/** The summary's corpus lines. */
export function corpusLines(replay: CorpusReplay | undefined): string[] {
  if (!replay) return [];
  const failing = replay.entries.filter((e) => e.status === 'failing').length;
  const passing = replay.entries.filter((e) => e.status === 'passing').length;
  const skipped = replay.entries.length - failing - passing;
  const lines = [
    `  corpus ${replay.dir}: ${replay.entries.length} entr${replay.entries.length === 1 ? 'y' : 'ies'} replayed first — ${failing} still failing, ${passing} now passing${skipped ? `, ${skipped} skipped` : ''} (${(replay.ms / 1000).toFixed(1)} s)${failing ? '; exploration skipped' : ''}`,
  ];
  for (const e of replay.entries) lines.push(`    ${e.status === 'failing' ? 'FAIL' : e.status === 'passing' ? 'ok  ' : 'skip'} ${e.id}: ${e.detail}`);
  for (const file of replay.saved) lines.push(`  corpus: new entry ${file}`);
  return lines;
}

/** The corpus block of result.json and certificate.json. */
export function corpusJson(replay: CorpusReplay | undefined) {
  if (!replay) return undefined;
  return {
    dir: replay.dir,
    entries: replay.entries.map((e) => ({ id: e.id, file: e.file, status: e.status, attempts: e.attempts, detail: e.detail, foundAgainst: e.foundAgainst })),
    saved: replay.saved,
  };
}
