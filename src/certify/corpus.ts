/**
 * The regression corpus in a chaos job: every entry's saved schedule is replayed first, against the
 * implementation under test and judged as a fresh run would be (the one replay path, ./replay.ts).
 * Only the entries the same implementation found (in any version) are replayed; another's are
 * reported as such. If one still fails, that is the job's failure and nothing more is explored (the verdict is in,
 * and CI hears it within the entry's own run); otherwise the job explores as usual, and a fresh
 * counterexample it finds is saved afterwards. The seed plays no part: a schedule is stored whole.
 */
import { randomBytes } from 'node:crypto';
import { readCorpus, recordReplay, saveEntry, type ReplayStatus, type StoredEntry } from '../corpus/store.ts';
import type { Counterexample } from '../report/counterexample.ts';
import type { ChaosOutcome, Failure } from './chaos.ts';
import { replaySchedule, type Replayer } from './replay.ts';

/** Runs of one entry before it counts as passing (replay's default re-runs). */
export const REPLAY_ATTEMPTS = 3;

/** What a job is told about its corpus: where it is and what it is testing. */
export interface CorpusOptions {
  readonly dir: string;
  /** sha256 of the implementation under test (certificate.json's). */
  readonly sha256: string;
  /** Its name across versions (implIdentity): only entries it found are replayed. */
  readonly impl?: string;
}

export interface EntryReplay {
  readonly id: string;
  readonly file: string;
  readonly status: ReplayStatus;
  /** Runs made: the failing one, or every passing one. */
  readonly attempts: number;
  /** Invariants the replay broke (failing), or why it could not run (skipped). */
  readonly detail: string;
  /** The sha256 of the implementation the entry was first found against. */
  readonly foundAgainst: string;
  /** The failing run, as a chaos failure (schedule, history, verdict). */
  readonly failure?: Failure;
}

export interface CorpusReplay {
  readonly dir: string;
  readonly entries: readonly EntryReplay[];
  readonly ms: number;
  /** New entries this job saved (a fresh counterexample). */
  readonly saved: readonly string[];
}

/** Replay the corpus (if any), then explore unless an entry still fails. */
export async function exploreAfterCorpus(
  corpus: CorpusOptions | undefined,
  replayer: Replayer,
  seed: number,
  explore: () => Promise<ChaosOutcome>,
): Promise<{ outcome: ChaosOutcome; corpus?: CorpusReplay }> {
  if (!corpus) return { outcome: await explore() };
  const replay = await replayCorpus(corpus, readCorpus(corpus.dir, replayer.pattern.name), replayer);
  const failing = stillFailing(replay);
  if (failing.length === 0) return { outcome: await explore(), corpus: replay };
  const tally = {
    runs: 0,
    shrinks: 0,
    discarded: 0,
    discardCauses: [],
    ops: 0,
    faults: 0,
    failures: failing.length,
    replicationLosses: 0,
    faultCounts: {},
  };
  return {
    outcome: { tally, failure: failing[0].failure, seed, ms: replay.ms, interrupted: false, shortOfRuns: false },
    corpus: replay,
  };
}

export async function replayCorpus(
  corpus: CorpusOptions,
  entries: readonly StoredEntry[],
  replayer: Replayer,
  attempts = REPLAY_ATTEMPTS,
): Promise<CorpusReplay> {
  const started = performance.now();
  const out: EntryReplay[] = [];
  const runId = randomBytes(4).toString('hex');
  for (const stored of entries) {
    const owner = stored.entry.corpus.impl;
    // Another implementation's counterexample says nothing about this one ("now passing" would be a lie).
    if (owner !== undefined && corpus.impl !== undefined && owner !== corpus.impl) {
      out.push({
        id: stored.id,
        file: stored.file,
        foundAgainst: stored.entry.corpus.sha256,
        status: 'foreign',
        attempts: 0,
        detail: `found against ${owner}, not this implementation: not replayed`,
      });
      continue;
    }
    const replay = await replayEntry(stored, replayer, attempts, `corpus-${runId}-${out.length}`, started);
    recordReplay(stored, replay.status, corpus.sha256);
    out.push(replay);
  }
  return { dir: corpus.dir, entries: out, ms: performance.now() - started, saved: [] };
}

async function replayEntry(
  stored: StoredEntry,
  replayer: Replayer,
  attempts: number,
  namespace: string,
  started: number,
): Promise<EntryReplay> {
  const { schedule } = stored.entry;
  const base = { id: stored.id, file: stored.file, foundAgainst: stored.entry.corpus.sha256 };
  // A corpus written with more clients than this job opened (--clients) cannot run here.
  if (schedule.clients.length > replayer.subjects.length) {
    return {
      ...base,
      status: 'skipped',
      attempts: 0,
      detail: `needs ${schedule.clients.length} clients, the job opened ${replayer.subjects.length}`,
    };
  }
  // Faults need process and proxy access an external cluster does not give (and may be destructive there).
  if (replayer.cluster.kind === 'external' && (schedule.faults.length > 0 || schedule.network)) {
    return {
      ...base,
      status: 'skipped',
      attempts: 0,
      detail: 'its schedule has faults, which are not run on an external cluster',
    };
  }
  let replay;
  try {
    replay = await replaySchedule(schedule, replayer, attempts, namespace);
  } catch (error) {
    // The cluster could not be healed after a run: an environment problem, not a verdict on the entry.
    await replayer.cluster.heal();
    return {
      ...base,
      status: 'skipped',
      attempts: 0,
      detail: `the run could not complete: ${(error as Error).message.split('\n')[0]}`,
    };
  }
  if (replay.failing === undefined)
    return { ...base, status: 'passing', attempts, detail: `passed ${attempts} time${attempts === 1 ? '' : 's'}` };
  const { run, result } = replay.failing;
  const named = [...new Set(result.violations.map((v) => v.invariant))];
  const detail = result.verdict === 'unknown' ? 'the checker could not decide (unknown)' : named.join(', ');
  const seconds = (performance.now() - started) / 1000;
  return {
    ...base,
    status: 'failing',
    attempts: replay.attempts,
    detail,
    failure: { schedule, history: run.history, result, firstFailure: { run: 0, seconds } },
  };
}

/** The entries that still fail: the first one's run becomes the job's failure. */
export const stillFailing = (replay: CorpusReplay | undefined) =>
  replay?.entries.filter((e) => e.status === 'failing') ?? [];

/**
 * Saves the job's counterexample in the corpus unless it came from there (its schedule is an
 * entry's already), and returns the replay report with the entry named.
 */
export function saveFailure(
  corpus: CorpusOptions | undefined,
  replay: CorpusReplay | undefined,
  ce: Counterexample | undefined,
  runDir: string,
): CorpusReplay | undefined {
  if (!corpus || !ce) return replay;
  const { file, added } = saveEntry(corpus.dir, ce, corpus.sha256, runDir, corpus.impl);
  const base = replay ?? { dir: corpus.dir, entries: [], ms: 0, saved: [] };
  return added ? { ...base, saved: [...base.saved, file] } : base;
}
