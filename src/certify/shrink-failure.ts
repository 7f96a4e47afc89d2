/**
 * A chaos job's first failure shrunk on every cluster the job has (./shrink.ts): the next
 * candidates of fast-check's shrink stream run side by side, one per lane, and the first of them in
 * stream order that still fails is kept. One lane shrinks exactly as fast-check would.
 */
import type { AnyPattern } from '../patterns/types.ts';
import type { Schedule } from '../plan/schedule.ts';
import type { ChaosContext, ChaosOptions, ChaosOutcome, Failure, Lane } from './chaos-types.ts';
import { countRun, discardIfHealed, firstLine, replayerOf, type Explored } from './explore.ts';
import { passes, runJudged, type Judged } from './replay.ts';
import { shrinkInBatches, WorkerLost } from './shrink.ts';

export interface ShrinkJob {
  readonly pattern: AnyPattern;
  readonly options: ChaosOptions;
}

/**
 * Shrink the explored failure on `lanes` (those whose cluster is still up; the first is the one
 * that found it). The tally counts every shrinking run; the outcome names the smallest failure.
 */
export async function shrinkFailure(
  explored: Explored,
  lanes: readonly Lane[],
  job: ShrinkJob,
  onRun?: ChaosContext['onRun'],
): Promise<ChaosOutcome> {
  const { found, ...outcome } = explored;
  if (!found || !outcome.failure || job.options.shrinkRuns <= 0 || lanes.length === 0) return outcome;
  const started = performance.now();
  const { tally } = outcome;
  let executions = 0;
  type Shown = Pick<Failure, 'history' | 'result'>;
  const attempt = async (lane: Lane, [schedule]: [Schedule]): Promise<Shown | undefined> => {
    let judged: Judged;
    try {
      judged = await runJudged(
        schedule,
        replayerOf({ ...lane, pattern: job.pattern }, job.options),
        `${found.runId}-s${executions++}`,
      );
    } catch (error) {
      // As in exploring; a cluster that does not come back takes no more candidates (the others go on).
      if (!(await discardIfHealed(lane.cluster, error, tally))) throw new WorkerLost(firstLine(error));
      return undefined;
    }
    const { run, result } = judged;
    countRun(tally, schedule, run, result, true);
    onRun?.(tally, {
      verdict: result.verdict,
      ms: run.ms,
      history: run.history,
      shrinking: true,
      unreadProbes: run.unreadProbes,
      probeNotes: run.probeNotes,
      duplicateEffects: result.duplicateEffects ?? {},
    });
    // Never shrink towards a run the checker could not decide.
    return result.verdict === 'unknown' || passes(result) ? undefined : { history: run.history, result };
  };
  const start = {
    value: found.value,
    path: found.path,
    failed: { history: outcome.failure.history, result: outcome.failure.result },
  };
  const limit = job.options.shrinkTimeMs;
  const deadline = limit ? started + limit : undefined;
  const shrunk = await shrinkInBatches(start, {
    shrink: found.shrink,
    workers: lanes,
    budget: job.options.shrinkRuns,
    attempt,
    deadline,
  });
  const [schedule] = shrunk.value.value_;
  return {
    ...outcome,
    failure: {
      schedule,
      history: shrunk.failed.history,
      result: shrunk.failed.result,
      firstFailure: outcome.failure.firstFailure,
    },
    path: shrunk.path,
    ms: outcome.ms + (performance.now() - started),
    shrinking: { ms: performance.now() - started, clusters: lanes.length, stopped: shrunk.stopped },
  };
}
