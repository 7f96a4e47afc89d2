import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { CheckOptions, CheckResult, DuplicateEffects } from '../checker/types.ts';
import type { Cluster } from '../cluster/types.ts';
import { scheduleArbitrary, type ScheduleConstraints } from '../generator/index.ts';
import { countOps, type Schedule } from '../plan/schedule.ts';
import type { History } from '../history/types.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { Subject } from '../subject/types.ts';
import { drawsFor, ownsDraw, type Shard } from '../runner/shard.ts';
import { passes, runJudged } from './replay.ts';

export { passes } from './replay.ts';

export interface ChaosOptions {
  readonly runs: number;
  readonly seed: number;
  /** fast-check replay path of a counterexample (with the same seed). */
  readonly path?: string;
  /** Stop starting new runs after this long (the run in flight finishes). */
  readonly timeLimitMs: number;
  /** Most re-runs spent shrinking a failure; then the smallest failure found so far is kept. */
  readonly shrinkRuns: number;
  /** What the schedules draw, but for the pattern (the context's). */
  readonly schedule: Omit<ScheduleConstraints, 'pattern'>;
  readonly check?: CheckOptions;
  readonly opTimeoutMs: number;
  readonly nodeTimeoutMs: number;
  /** Goes into every run's key namespace (`<runId>-<n>`); random when absent. */
  readonly runId?: string;
  /** Asked before every fresh run: true stops the job as the time limit would (a finding is already in). */
  readonly stopEarly?: () => boolean;
  /** Run only this shard's draws of the seed's sequence (src/runner/shard.ts). */
  readonly shard?: Shard;
}

export interface RunTally {
  /** Runs of fresh schedules (shrinking re-runs are counted in `shrinks`). */
  runs: number;
  shrinks: number;
  /** Runs thrown away because the cluster needed a second heal (environment, not verdict). They
   *  never count towards the runs asked: another schedule is drawn in their place. */
  discarded: number;
  /** Why each discarded run was thrown away (the error's first line), in order. */
  discardCauses: string[];
  ops: number;
  faults: number;
  failures: number;
  replicationLosses: number;
  /** Each replication loss of a fresh run: "run N, key K: what was lost, to which fault". */
  replicationLossNotes?: string[];
  faultCounts: Record<string, number>;
}

export interface Failure {
  readonly schedule: Schedule;
  readonly history: History;
  readonly result: CheckResult;
  /** Runs and seconds from the start until the first failing run. */
  readonly firstFailure: { readonly run: number; readonly seconds: number };
}

export interface ChaosOutcome {
  readonly tally: RunTally;
  /** The smallest failing schedule found, with its history and verdict. */
  readonly failure?: Failure;
  readonly seed: number;
  readonly path?: string;
  readonly ms: number;
  readonly interrupted: boolean;
  /** Fresh runs judged fewer than asked because too many were discarded (interrupted is the time limit). */
  readonly shortOfRuns: boolean;
  /**
   * Set when the environment failed mid-job (the cluster could not be healed after a run): the job
   * stopped there, and what it judged before (tally, failure) is kept as evidence, not thrown away.
   */
  readonly environmentFailure?: string;
}

/** Extra schedules drawn to replace discarded runs: as many as asked, at least 5. More discards than
 *  that mean the cluster is not healthy enough for a verdict, and the job says so. */
export const discardAllowance = (runs: number) => Math.max(5, runs);

export interface ChaosContext {
  readonly cluster: Cluster;
  readonly subjects: readonly Subject[];
  /** Whose sessions are drawn, and what every run's history is judged against. */
  readonly pattern: AnyPattern;
  readonly onRun?: (tally: RunTally, last: { verdict: string; ms: number; history: History; shrinking: boolean; unreadProbes: readonly string[]; probeNotes: readonly string[]; duplicateEffects: DuplicateEffects }) => void;
}

/**
 * The concurrent chaos property (in certify, not in the runner: it joins the stages, so the runner
 * stays free of the checker that judges its histories): fast-check draws schedules, each runs against the real cluster,
 * the checker judges its history, and a failing schedule shrinks to a smaller one that still fails.
 */
export async function chaos(ctx: ChaosContext, options: ChaosOptions): Promise<ChaosOutcome> {
  const started = performance.now();
  const runId = options.runId ?? randomBytes(4).toString('hex');
  const tally: RunTally = { runs: 0, shrinks: 0, discarded: 0, discardCauses: [], ops: 0, faults: 0, failures: 0, replicationLosses: 0, faultCounts: {} };
  let failure: Failure | undefined;
  let undecided: Failure | undefined;
  let firstFailure: Failure['firstFailure'] | undefined;
  let shrinkRunsLeft = options.shrinkRuns;
  let executions = 0;
  // Fresh draws so far (shrinking re-runs excluded): a shard runs only the draws that are its own.
  let draws = 0;
  let environment: Error | undefined;
  let interrupted = false;

  const property = fc.asyncProperty(scheduleArbitrary({ ...options.schedule, pattern: ctx.pattern }), async (schedule) => {
    if (environment) return true;
    if (!failure && !ownsDraw(options.shard, draws++)) return true;
    if (failure && shrinkRunsLeft-- <= 0) return true; // budget spent: keep the smallest failure so far
    // Judged runs count towards the budget, discarded ones do not: the schedules fast-check draws
    // beyond the budget only replace discarded runs, and are not run once the budget is judged.
    if (!failure && tally.runs >= options.runs) return true;
    if (!failure && (performance.now() - started > options.timeLimitMs || options.stopEarly?.())) {
      interrupted = true;
      return true;
    }
    let judged;
    try {
      // Every execution, shrinking ones too, gets its own namespace: runs never see each other's keys.
      const replayer = { cluster: ctx.cluster, subjects: ctx.subjects, pattern: ctx.pattern, opTimeoutMs: options.opTimeoutMs, nodeTimeoutMs: options.nodeTimeoutMs, check: options.check };
      judged = await runJudged(schedule, replayer, `${runId}-${executions++}`);
    } catch (error) {
      // The cluster could not be healed: not the implementation's fault, and not a verdict. One more
      // heal; if the cluster comes back the run is discarded (its history is incomplete), else the
      // job ends as an environment failure.
      try {
        await ctx.cluster.heal();
        tally.discarded++;
        const message = error instanceof Error ? error.message : String(error);
        tally.discardCauses.push(message.split('\n')[0]);
      } catch {
        environment = error as Error;
      }
      return true;
    }
    const { run, result } = judged;
    const shrinking = failure !== undefined;
    if (shrinking) tally.shrinks++;
    else tally.runs++;
    tally.ops += countOps(schedule);
    for (const f of run.history.faults) {
      tally.faults++;
      tally.faultCounts[f.kind] = (tally.faultCounts[f.kind] ?? 0) + 1;
    }
    if (result.verdict === 'replication-loss') tally.replicationLosses++;
    if (!shrinking) {
      for (const loss of result.replicationLosses) (tally.replicationLossNotes ??= []).push(`run ${tally.runs}, key ${loss.key}: ${loss.message}`);
    }
    const ok = passes(result);
    if (!ok) tally.failures++;
    ctx.onRun?.(tally, { verdict: result.verdict, ms: run.ms, history: run.history, shrinking, unreadProbes: run.unreadProbes, probeNotes: run.probeNotes, duplicateEffects: result.duplicateEffects ?? {} });
    const now = () => ({ run: tally.runs, seconds: (performance.now() - started) / 1000 });
    // A run the checker could not decide never certifies, but it names nothing: keep looking for a
    // run that does (and never shrink towards one), falling back to the undecided run at the end.
    if (result.verdict === 'unknown') {
      if (!shrinking) undecided ??= { schedule, history: run.history, result, firstFailure: now() };
      return true;
    }
    if (!ok) {
      firstFailure ??= now();
      failure = { schedule, history: run.history, result, firstFailure };
    }
    return ok;
  });

  const details = await fc.check(property, {
    numRuns: drawsFor(options.runs + discardAllowance(options.runs), options.shard),
    seed: options.seed,
    path: options.path,
    endOnFailure: false,
  });
  return {
    tally,
    failure: failure ?? undecided,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    ms: performance.now() - started,
    interrupted,
    shortOfRuns: !environment && !interrupted && !failure && tally.runs < options.runs,
    environmentFailure: environment ? `the cluster could not be healed between runs: ${firstLine(environment)}` : undefined,
  };
}

const firstLine = (error: Error) => (error.message ?? String(error)).split('\n')[0];
