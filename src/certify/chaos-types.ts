/** What a chaos job is asked (ChaosOptions), what it keeps count of and what it hands on. */
import type { CheckOptions, CheckResult, DuplicateEffects } from '../checker/types.ts';
import type { Cluster } from '../cluster/types.ts';
import type { ScheduleConstraints } from '../generator/index.ts';
import type { History } from '../history/types.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { Schedule } from '../plan/schedule.ts';
import type { Shard } from '../runner/shard.ts';
import type { Subject } from '../subject/types.ts';
import type { ShrinkStop } from './shrink.ts';

export interface ChaosOptions {
  readonly runs: number;
  readonly seed: number;
  /** fast-check replay path of a counterexample (with the same seed). */
  readonly path?: string;
  /** Stop starting new runs after this long (the run in flight finishes). */
  readonly timeLimitMs: number;
  /** Most re-runs spent shrinking a failure; then the smallest failure found so far is kept. */
  readonly shrinkRuns: number;
  /** Start no shrinking batch that would end after this long, ms (the smallest failure so far is kept); absent: no limit. */
  readonly shrinkTimeMs?: number;
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
  /** Pass over this many of the shard's own draws first: a lane on a replacement cluster goes on
   *  from the draw after the one its lost cluster could not finish. */
  readonly skipDraws?: number;
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
  /** Runs a moved server clock explained (clock faults), and each one's "run N, key K: ..." note. */
  clockLosses?: number;
  clockLossNotes?: string[];
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
  /** Wall time spent shrinking the failure, on how many clusters at once, and why it stopped (absent: no shrinking). */
  readonly shrinking?: { readonly ms: number; readonly clusters: number; readonly stopped: ShrinkStop };
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
  readonly onRun?: (
    tally: RunTally,
    last: {
      verdict: string;
      ms: number;
      history: History;
      shrinking: boolean;
      unreadProbes: readonly string[];
      probeNotes: readonly string[];
      duplicateEffects: DuplicateEffects;
    },
  ) => void;
}

/** A cluster with the implementation opened on it: one lane of a job (--clusters). */
export interface Lane {
  readonly cluster: Cluster;
  readonly subjects: readonly Subject[];
}
