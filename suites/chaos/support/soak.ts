import fs from 'node:fs';
import path from 'node:path';
import { check } from '../../../src/checker/index.ts';
import { projectRoot } from '../../../src/cluster/binaries.ts';
import { LocalCluster } from '../../../src/cluster/local.ts';
import { describeFailure, referenceChaos } from '../../../src/certify/reference-chaos.ts';
import { parseFaultList } from '../../../src/generator/index.ts';
import type { AnyPattern, PatternName } from '../../../src/patterns/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { describeSchedule } from '../../../src/plan/schedule.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../../../src/report/counterexample.ts';

/**
 * CI's soak runs `all,clocks`: every default fault and the server clock faults (a soak is where a
 * clock false alarm would show); CHAOSLUA_SOAK_FAULTS (a --faults list, e.g. all) soaks under others.
 */
const SOAK_FAULTS = parseFaultList(process.env.CHAOSLUA_SOAK_FAULTS || 'all,clocks');

/** What one pattern's soak did and found: the figures the README's soak row quotes. */
export interface SoakFigures {
  readonly pattern: PatternName;
  readonly seed: number;
  /** Judged runs (discarded ones are counted apart and never among these). */
  readonly runs: number;
  readonly discarded: number;
  readonly discardCauses: readonly string[];
  /** Operations scheduled, and those a client saw acknowledged (outcome ok). */
  readonly ops: number;
  readonly acknowledged: number;
  readonly faults: number;
  readonly faultCounts: Readonly<Record<string, number>>;
  readonly replicationLosses: number;
  /** Runs a moved server clock explained (only with clock faults in CHAOSLUA_SOAK_FAULTS). */
  readonly clockLosses: number;
  readonly failures: number;
  /** Keys the checker could not decide within its budget. */
  readonly unknownKeys: number;
  /** Runs with a key the search could not decide within its budget (not violations). */
  readonly undecidedRuns: number;
  /** The first such run, and where its history is kept. */
  readonly undecided?: string;
  /** Search states spent per key, over every key of every judged run. */
  readonly states: { readonly keys: number; readonly median: number; readonly max: number; readonly maxAt: string };
  readonly seconds: number;
  /** The first failing run's verdict and violations, when there is one. */
  readonly failure?: string;
  /** Its counterexample file (`chaoslua replay FILE --no-rerun` re-checks it). */
  readonly counterexampleFile?: string;
}

/**
 * The reference implementation of `pattern` under every fault for `runs` judged runs on `clusters`
 * (certify's chaos job on that many lanes, no shrinking, no time limit short of the hang guard).
 * Every run's history is checked once more to count the search states per key: the chaos loop
 * keeps only the verdict.
 */
export async function soak(
  clusters: readonly LocalCluster[],
  pattern: PatternName,
  runs: number,
  seed: number,
): Promise<SoakFigures> {
  const states: number[] = [];
  let max = { states: -1, at: '' };
  let unknownKeys = 0;
  let undecidedRuns = 0;
  let acknowledged = 0;
  const outcome = await referenceChaos(clusters, {
    pattern: PATTERNS[pattern],
    runs,
    seed,
    faults: SOAK_FAULTS,
    // Runs, not time, bound the job: it must judge every run asked.
    timeLimitMs: runs * 60_000,
    onRun: (tally, last) => {
      if (last.shrinking) return;
      acknowledged += last.history.ops.filter((op) => op.outcome === 'ok').length;
      if (last.verdict === 'unknown') undecidedRuns++;
      for (const key of check(last.history, PATTERNS[pattern] as AnyPattern, { minimise: false }).keys) {
        states.push(key.statesExplored);
        if (key.verdict === 'unknown') unknownKeys++;
        if (key.statesExplored > max.states)
          max = { states: key.statesExplored, at: `run ${tally.runs}, key ${key.key}, ${key.ops} ops` };
      }
    },
  });
  const t = outcome.tally;
  // A false alarm on a reference is a bug to find, and a history the search could not decide a case
  // for the checker: keep the history that shows it.
  let counterexampleFile: string | undefined;
  const undecided = outcome.failure?.result.verdict === 'unknown';
  if (outcome.failure) {
    const { model } = PATTERNS[pattern] as AnyPattern;
    const counterexample: Counterexample = {
      version: COUNTEREXAMPLE_VERSION,
      pattern,
      impl: `reference ${pattern}`,
      seed: outcome.seed,
      path: outcome.path,
      options: { runs, faults: SOAK_FAULTS },
      schedule: outcome.failure.schedule,
      scheduleText: describeSchedule(outcome.failure.schedule, (i) => model.describeInput(i)),
      history: outcome.failure.history,
      result: outcome.failure.result,
    };
    counterexampleFile = path.join(
      projectRoot,
      'reports',
      `soak-${pattern}-seed${seed}-${undecided ? 'undecided' : 'counterexample'}.json`,
    );
    fs.mkdirSync(path.dirname(counterexampleFile), { recursive: true });
    fs.writeFileSync(counterexampleFile, `${JSON.stringify(counterexample, null, 2)}\n`);
  }
  const sorted = states.sort((a, b) => a - b);
  return {
    pattern,
    seed,
    runs: t.runs,
    discarded: t.discarded,
    discardCauses: t.discardCauses,
    ops: t.ops,
    acknowledged,
    faults: t.faults,
    faultCounts: t.faultCounts,
    replicationLosses: t.replicationLosses,
    clockLosses: t.clockLosses ?? 0,
    // Runs whose verdict was a violation (an undecided run is counted among the failures by the tally).
    failures: t.failures - undecidedRuns,
    undecidedRuns,
    unknownKeys,
    states: {
      keys: sorted.length,
      median: sorted[Math.floor(sorted.length / 2)] ?? 0,
      max: Math.max(max.states, 0),
      maxAt: max.at,
    },
    seconds: Math.round(outcome.ms / 1000),
    failure:
      outcome.failure && !undecided ? `${describeFailure(outcome)}\ncounterexample: ${counterexampleFile}` : undefined,
    undecided: undecided ? `${describeFailure(outcome)}\nhistory: ${counterexampleFile}` : undefined,
    counterexampleFile,
  };
}

/** One line per pattern, as the README's soak row gives them. */
export function describeSoak(f: SoakFigures): string {
  return (
    `${f.pattern} (seed ${f.seed}): ${f.runs} runs (${f.discarded} discarded), ${f.ops} operations (${f.acknowledged} acknowledged), ` +
    `${f.faults} faults ${JSON.stringify(f.faultCounts)}, ${f.replicationLosses} replication losses, ${f.clockLosses} clock losses, ${f.failures} failures, ` +
    `${f.unknownKeys} keys unknown; search states per key over ${f.states.keys} keys: median ${f.states.median}, ` +
    `max ${f.states.max} (${f.states.maxAt}); ${f.seconds} s`
  );
}

/**
 * At most `groups` groups of `lanes` local clusters at once, each group lent to one job at a time
 * and started on first need; `dispose` ends them all. Lets patterns soak side by side, each on
 * clusters of its own.
 */
export class ClusterPool {
  private readonly idle: LocalCluster[][] = [];
  private readonly all: Promise<LocalCluster>[] = [];
  private readonly waiting: ((group: LocalCluster[]) => void)[] = [];

  constructor(
    private readonly groups: number,
    private readonly lanes = 1,
  ) {
    if (!Number.isInteger(groups) || groups < 1)
      throw new RangeError(`cluster pool: groups must be a positive integer, got ${groups}`);
    if (!Number.isInteger(lanes) || lanes < 1)
      throw new RangeError(`cluster pool: lanes must be a positive integer, got ${lanes}`);
  }

  async use<T>(job: (clusters: readonly LocalCluster[]) => Promise<T>): Promise<T> {
    const group = await this.acquire();
    try {
      // Each job starts from ready clusters, whatever the previous one left.
      await Promise.all(group.map((c) => c.heal()));
      return await job(group);
    } finally {
      const next = this.waiting.shift();
      if (next) next(group);
      else this.idle.push(group);
    }
  }

  private acquire(): Promise<LocalCluster[]> {
    const idle = this.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.all.length < this.groups * this.lanes) {
      const starting = Array.from({ length: this.lanes }, () => LocalCluster.start());
      this.all.push(...starting);
      return Promise.all(starting);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async dispose(): Promise<void> {
    const started = await Promise.allSettled(this.all);
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.dispose() : undefined)));
  }
}
