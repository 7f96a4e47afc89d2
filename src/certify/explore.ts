/**
 * The exploring half of a chaos job: fast-check draws schedules, each runs against the real
 * cluster, the checker judges its history. It stops at the first failure without shrinking it
 * (./shrink-failure.ts does, on every cluster the job has): what it hands on is the failure, with
 * the fast-check value and path it came from.
 */
import { randomBytes } from 'node:crypto';
import fc, { type Stream, type Value } from 'fast-check';
import type { CheckResult } from '../checker/types.ts';
import { scheduleArbitrary } from '../generator/index.ts';
import { countOps, type Schedule } from '../plan/schedule.ts';
import type { RunResult } from '../runner/run.ts';
import { drawsFor, ownsDraw } from '../runner/shard.ts';
import {
  discardAllowance,
  type ChaosContext,
  type ChaosOptions,
  type ChaosOutcome,
  type Failure,
  type RunTally,
} from './chaos-types.ts';
import { passes, runJudged, type Replayer } from './replay.ts';
import { continuePath, recordingValues } from './shrink.ts';

/** Where a decided failure was found, to shrink from. */
export interface Found {
  readonly value: Value<[Schedule]>;
  /** fast-check's path to it (`--seed S --path P` replays it). */
  readonly path: string;
  /** fast-check's shrinker of the job's schedules. */
  readonly shrink: (value: Value<[Schedule]>) => Stream<Value<[Schedule]>>;
  /** The key namespace of the job's runs (`<runId>-<n>`): shrinking runs take theirs from it too. */
  readonly runId: string;
}

export interface Explored extends ChaosOutcome {
  /** Set when a run failed with a decided verdict (an undecided run names nothing to shrink). */
  readonly found?: Found;
}

/** What one cluster explored. */
export interface LaneExplored extends Explored {
  /** The shard's own draws a run was started on (judged, discarded, or cut short by the cluster). */
  readonly ownDraws: number;
}

export const emptyTally = (): RunTally => ({
  runs: 0,
  shrinks: 0,
  discarded: 0,
  discardCauses: [],
  ops: 0,
  faults: 0,
  failures: 0,
  replicationLosses: 0,
  faultCounts: {},
});

/** One judged run added to the tally (fresh or shrinking). */
export function countRun(
  tally: RunTally,
  schedule: Schedule,
  run: RunResult,
  result: CheckResult,
  shrinking: boolean,
): void {
  if (shrinking) tally.shrinks++;
  else tally.runs++;
  tally.ops += countOps(schedule);
  for (const f of run.history.faults) {
    tally.faults++;
    tally.faultCounts[f.kind] = (tally.faultCounts[f.kind] ?? 0) + 1;
  }
  if (result.verdict === 'replication-loss') tally.replicationLosses++;
  if (!shrinking)
    for (const loss of result.replicationLosses)
      (tally.replicationLossNotes ??= []).push(`run ${tally.runs}, key ${loss.key}: ${loss.message}`);
  if (result.verdict === 'clock-loss') tally.clockLosses = (tally.clockLosses ?? 0) + 1;
  if (!shrinking)
    for (const loss of result.clockLosses ?? [])
      (tally.clockLossNotes ??= []).push(`run ${tally.runs}, key ${loss.key}: ${loss.message}`);
  if (!passes(result)) tally.failures++;
}

/** The lane's replayer: its cluster and subjects, the job's pattern and timeouts. */
export const replayerOf = (
  ctx: Pick<ChaosContext, 'cluster' | 'subjects' | 'pattern'>,
  options: ChaosOptions,
): Replayer => ({
  cluster: ctx.cluster,
  subjects: ctx.subjects,
  pattern: ctx.pattern,
  opTimeoutMs: options.opTimeoutMs,
  nodeTimeoutMs: options.nodeTimeoutMs,
  check: options.check,
});

/** Explore until the runs asked are judged, the time is up, or a run fails. */
export async function explore(ctx: ChaosContext, options: ChaosOptions): Promise<LaneExplored> {
  const started = performance.now();
  const runId = options.runId ?? randomBytes(4).toString('hex');
  const tally = emptyTally();
  const replayer = replayerOf(ctx, options);
  let failure: Failure | undefined;
  let found: Found | undefined;
  let undecided: Failure | undefined;
  let calls = 0; // of the predicate: fast-check's index of the value it is given
  let executions = 0;
  // Fresh draws so far: a shard runs only the draws that are its own.
  let draws = 0;
  let ownDraws = 0;
  let skip = options.skipDraws ?? 0;
  let environment: Error | undefined;
  let interrupted = false;

  const recorded = recordingValues(
    fc.asyncProperty(scheduleArbitrary({ ...options.schedule, pattern: ctx.pattern }), async (schedule) => {
      const index = calls++;
      // Always true: fast-check must not shrink (shrinking is done on the job's clusters, side by side).
      if (environment || failure) return true;
      if (!ownsDraw(options.shard, draws++)) return true;
      if (skip > 0) {
        skip--; // already run, on a cluster this lane lost
        return true;
      }
      // Judged runs count towards the budget, discarded ones do not: the schedules fast-check draws
      // beyond the budget only replace discarded runs, and are not run once the budget is judged.
      if (tally.runs >= options.runs) return true;
      if (performance.now() - started > options.timeLimitMs || options.stopEarly?.()) {
        interrupted = true;
        return true;
      }
      ownDraws++;
      let judged;
      try {
        // Every execution gets its own namespace: runs never see each other's keys.
        judged = await runJudged(schedule, replayer, `${runId}-${executions++}`);
      } catch (error) {
        // The cluster could not be healed: not the implementation's fault, and not a verdict. If one
        // more heal brings it back the run is discarded, else the job ends as an environment failure.
        if (!(await discardIfHealed(ctx.cluster, error, tally))) environment = error as Error;
        return true;
      }
      const { run, result } = judged;
      countRun(tally, schedule, run, result, false);
      ctx.onRun?.(tally, {
        verdict: result.verdict,
        ms: run.ms,
        history: run.history,
        shrinking: false,
        unreadProbes: run.unreadProbes,
        probeNotes: run.probeNotes,
        duplicateEffects: result.duplicateEffects ?? {},
      });
      const at = { run: tally.runs, seconds: (performance.now() - started) / 1000 };
      // A run the checker could not decide never certifies, but it names nothing: keep looking for a
      // run that does (and never shrink towards one), falling back to the undecided run at the end.
      if (result.verdict === 'unknown') undecided ??= { schedule, history: run.history, result, firstFailure: at };
      else if (!passes(result)) {
        failure = { schedule, history: run.history, result, firstFailure: at };
        const value = recorded.valueOf(schedule);
        if (value)
          found = {
            value,
            path: continuePath(options.path, String(index)),
            shrink: (v) => recorded.property.shrink(v),
            runId,
          };
      }
      return true;
    }),
  );

  const details = await fc.check(recorded.property, {
    numRuns: drawsFor(options.runs + discardAllowance(options.runs), options.shard),
    seed: options.seed,
    path: options.path,
  });
  return {
    tally,
    failure: failure ?? undecided,
    found,
    ownDraws,
    seed: details.seed,
    path: found?.path,
    ms: performance.now() - started,
    interrupted,
    shortOfRuns: !environment && !interrupted && !failure && tally.runs < options.runs,
    environmentFailure: environment
      ? `the cluster could not be healed between runs: ${firstLine(environment)}`
      : undefined,
  };
}

/**
 * After a run threw (its cluster could not be healed after it): one more heal. When the cluster comes
 * back the run is discarded (its history is incomplete), its cause kept, and true is returned.
 */
export async function discardIfHealed(
  cluster: ChaosContext['cluster'],
  error: unknown,
  tally: RunTally,
): Promise<boolean> {
  try {
    await cluster.heal();
  } catch {
    return false;
  }
  tally.discarded++;
  tally.discardCauses.push(firstLine(error));
  return true;
}

export const firstLine = (error: unknown) =>
  (error instanceof Error ? (error.message ?? String(error)) : String(error)).split('\n')[0];
