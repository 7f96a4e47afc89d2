/**
 * A job's first step, run: its schedules against the implementation on the cluster (the corpus's
 * saved ones first, then fresh draws), each run judged as it finishes, since a failing run must
 * shrink. What comes out is the chaos outcome and what the runs showed (./observations.ts); the
 * job's verdict is the next step's (./judge.ts).
 */
import type { Cluster } from '../cluster/types.ts';
import type { Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { ChaosOptions, ChaosOutcome } from './chaos.ts';
import { chaosOnLanes, emptyTally, type Lane, type ReplaceLane } from './lanes.ts';
import { exploreAfterCorpus, type CorpusOptions, type CorpusReplay } from './corpus.ts';
import type { FinishedRunsLog } from './finished-runs.ts';
import { RunObserver, type Observations } from './observations.ts';
import type { progressReporter } from './progress.ts';
import type { OpenedImpl } from './types.ts';

export interface RunStep {
  readonly cluster: Cluster;
  readonly opened: OpenedImpl;
  readonly pattern: AnyPattern;
  /** What the implementation declared (or every operation, exactly): what is drawn and counted. */
  readonly capabilities: Capabilities;
  readonly chaos: ChaosOptions;
  readonly corpus?: CorpusOptions;
  readonly progress: ReturnType<typeof progressReporter>;
  /** Further clusters, each with the implementation opened on it, that the fresh runs are dealt to beside the first (./lanes.ts). */
  readonly moreLanes?: readonly Lane[];
  /** A fresh lane for one whose cluster was lost (./lanes.ts); absent: a lost cluster ends the job. */
  readonly replace?: ReplaceLane;
}

export interface JobRun {
  readonly outcome: ChaosOutcome;
  /** The corpus replayed first, entry by entry. */
  readonly corpus?: CorpusReplay;
  readonly observations: Observations;
  /** Every judged run's history: the write step keeps it when the environment ended the job. */
  readonly finishedRuns: FinishedRunsLog;
}

/** Run the job's schedules. An implementation that could not be opened runs nothing: its finding is the verdict. */
export async function runSchedules(step: RunStep): Promise<JobRun> {
  const { cluster, opened, pattern, progress } = step;
  const observer = new RunObserver(pattern, step.capabilities);
  const onRun: NonNullable<Parameters<typeof chaosOnLanes>[3]> = (tally, last) => {
    progress.update(tally);
    observer.observe(tally.runs, last);
  };
  const lanes = [{ cluster, subjects: opened.subjects }, ...(step.moreLanes ?? [])];
  const replayer = {
    cluster,
    subjects: opened.subjects,
    pattern,
    nodeTimeoutMs: step.chaos.nodeTimeoutMs,
    opTimeoutMs: step.chaos.opTimeoutMs,
    check: step.chaos.check,
  };
  try {
    const explored =
      opened.subjects.length === 0
        ? { outcome: noRuns(step.chaos.seed), corpus: undefined }
        : await exploreAfterCorpus(step.corpus, replayer, step.chaos.seed, () =>
            chaosOnLanes(lanes, pattern, step.chaos, onRun, step.replace),
          );
    progress.done(explored.outcome.tally);
    return { ...explored, observations: observer.observations(), finishedRuns: observer.finishedRuns };
  } catch (error) {
    observer.finishedRuns.discard();
    throw error;
  }
}

function noRuns(seed: number): ChaosOutcome {
  return { tally: emptyTally(), seed, ms: 0, interrupted: false, shortOfRuns: false };
}
