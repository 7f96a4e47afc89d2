/**
 * The one path a schedule takes to a verdict: run it against the implementation on the cluster,
 * then judge its history against the pattern. certify's chaos runs, the corpus replay before a job
 * explores, and `chaoslua replay` all go through here, so what the tests prove of one is what the
 * others do.
 */
import { check } from '../checker/index.ts';
import type { CheckOptions, CheckResult } from '../checker/types.ts';
import type { Cluster } from '../cluster/types.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { withVariants } from '../patterns/variants.ts';
import type { Schedule } from '../plan/schedule.ts';
import { runSchedule, type RunResult } from '../runner/run.ts';
import type { Subject } from '../subject/types.ts';
import { OP_TIMEOUT_MS } from './timeouts.ts';

/** What a schedule is replayed on and judged by. */
export interface Replayer {
  readonly cluster: Cluster;
  /** One per logical client (at least as many as the schedule has clients). */
  readonly subjects: readonly Subject[];
  /** The histories are judged against it; its semantic variants are recorded as each subject declared them. */
  readonly pattern: AnyPattern;
  readonly nodeTimeoutMs: number;
  /** Longest one operation is waited for before it is recorded as indeterminate. Default OP_TIMEOUT_MS. */
  readonly opTimeoutMs?: number;
  readonly check?: CheckOptions;
}

export interface Judged {
  readonly run: RunResult;
  readonly result: CheckResult;
}

/** A run passes when every key is linearizable, or explained only by replication loss. */
export const passes = (r: CheckResult) =>
  r.verdict === 'ok' || r.verdict === 'replication-loss' || r.verdict === 'clock-loss';

/** One run of the schedule in `namespace` (fresh per run: runs never see each other's keys), judged. */
export async function runJudged(schedule: Schedule, replayer: Replayer, namespace: string): Promise<Judged> {
  const { cluster, subjects, pattern } = replayer;
  const run = await runSchedule(schedule, {
    cluster,
    subjects,
    namespace,
    nodeTimeoutMs: replayer.nodeTimeoutMs,
    opTimeoutMs: replayer.opTimeoutMs ?? OP_TIMEOUT_MS,
    declared: (client, input) => withVariants(pattern, subjects[client].capabilities, input),
  });
  return { run, result: check(run.history, pattern, replayer.check) };
}

export interface Replay {
  /** Runs made: up to the failing one, or every passing one. */
  readonly attempts: number;
  /** The first failing run, if one failed. */
  readonly failing?: Judged;
  /** The last run made. */
  readonly last: Judged;
}

/**
 * A schedule's outcome can hang on timing (a lease ending between two commands), so a replay runs
 * it up to `attempts` times and stops at the first failure: one failure is enough to say it still
 * fails, and it passes only having passed every time. Throws what a run throws (a cluster that
 * could not be healed after it): the caller decides what that means.
 */
export async function replaySchedule(
  schedule: Schedule,
  replayer: Replayer,
  attempts: number,
  namespace: string,
): Promise<Replay> {
  let last: Judged | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    last = await runJudged(schedule, replayer, `${namespace}-${attempt}`);
    if (!passes(last.result)) return { attempts: attempt, failing: last, last };
  }
  if (last === undefined) throw new RangeError(`replaySchedule: attempts must be at least 1, got ${attempts}`);
  return { attempts, last };
}
