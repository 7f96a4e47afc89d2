/**
 * Replaying the corpus before a job explores: each entry's saved schedule runs against the
 * implementation under test and is judged by the checker, exactly as a fresh run would be. A
 * schedule's outcome can hang on timing (a lease ending between two commands), so an entry counts
 * as passing only after it passed `attempts` times in a row; one failure is enough to say it still
 * fails. The seed plays no part: the schedule is stored whole.
 */
import { randomBytes } from 'node:crypto';
import { check } from '../checker/index.ts';
import type { CheckOptions } from '../checker/types.ts';
import type { Cluster } from '../cluster/types.ts';
import type { CheckSpec } from '../checker/spec.ts';
import { passes, type Failure } from '../certify/chaos.ts';
import { runSchedule } from '../runner/run.ts';
import type { Subject } from '../subject/types.ts';
import { recordReplay, type ReplayStatus, type StoredEntry } from './store.ts';

/** Runs of one entry before it counts as passing (replay's default re-runs). */
export const REPLAY_ATTEMPTS = 3;

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

export interface CorpusReplayContext {
  readonly cluster: Cluster;
  readonly subjects: readonly Subject[];
  readonly spec: CheckSpec;
  readonly check?: CheckOptions;
  readonly nodeTimeoutMs: number;
  readonly opTimeoutMs: number;
  /** sha256 of the implementation under test, written into each entry's lastReplay. */
  readonly sha256: string;
}

export async function replayCorpus(dir: string, entries: readonly StoredEntry[], ctx: CorpusReplayContext, attempts = REPLAY_ATTEMPTS): Promise<CorpusReplay> {
  const started = performance.now();
  const out: EntryReplay[] = [];
  const runId = randomBytes(4).toString('hex');
  for (const stored of entries) {
    const replay = await replayEntry(stored, ctx, attempts, `corpus-${runId}-${out.length}`, started);
    recordReplay(stored, replay.status, ctx.sha256);
    out.push(replay);
  }
  return { dir, entries: out, ms: performance.now() - started, saved: [] };
}

async function replayEntry(stored: StoredEntry, ctx: CorpusReplayContext, attempts: number, namespace: string, started: number): Promise<EntryReplay> {
  const { schedule } = stored.entry;
  const base = { id: stored.id, file: stored.file, foundAgainst: stored.entry.corpus.sha256 };
  // A corpus written with more clients than this job opened (--clients) cannot run here.
  if (schedule.clients.length > ctx.subjects.length) {
    return { ...base, status: 'skipped', attempts: 0, detail: `needs ${schedule.clients.length} clients, the job opened ${ctx.subjects.length}` };
  }
  // Faults need process and proxy access an external cluster does not give (and may be destructive there).
  if (ctx.cluster.kind === 'external' && (schedule.faults.length > 0 || schedule.network)) {
    return { ...base, status: 'skipped', attempts: 0, detail: 'its schedule has faults, which are not run on an external cluster' };
  }
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let run;
    try {
      run = await runSchedule(schedule, { ...ctx, namespace: `${namespace}-${attempt}` });
    } catch (error) {
      // The cluster could not be healed after it: an environment problem, not a verdict on the entry.
      await ctx.cluster.heal();
      return { ...base, status: 'skipped', attempts: attempt, detail: `the run could not complete: ${(error as Error).message.split('\n')[0]}` };
    }
    const result = check(run.history, ctx.spec, ctx.check);
    if (!passes(result)) {
      const named = [...new Set(result.violations.map((v) => v.invariant))];
      const detail = result.verdict === 'unknown' ? 'the checker could not decide (unknown)' : named.join(', ');
      const seconds = (performance.now() - started) / 1000;
      return { ...base, status: 'failing', attempts: attempt, detail, failure: { schedule, history: run.history, result, firstFailure: { run: 0, seconds } } };
    }
  }
  return { ...base, status: 'passing', attempts, detail: `passed ${attempts} time${attempts === 1 ? '' : 's'}` };
}

/** The entries that still fail: the first one's run becomes the job's failure. */
export const stillFailing = (replay: CorpusReplay | undefined) => replay?.entries.filter((e) => e.status === 'failing') ?? [];
