/**
 * One job on several clusters at once (`--clusters N`). The job's fresh draws are dealt to N lanes
 * as in-process shards (src/runner/shard.ts): lane j runs the draws whose index is j modulo N, on a
 * cluster of its own with the implementation opened on it. So a seed names the same schedules
 * whatever N is (R runs on N lanes run exactly the draws 0 .. R-1 one lane would, when nothing is
 * discarded), and a failure's `--seed S --path P` replays in a plain job. A run mostly waits (on
 * faults, heals, leases), which is why two cores hold several lanes.
 *
 * The first failure stops the other lanes (their runs in flight finish, and are judged and counted)
 * and shrinks on every lane's cluster at once (./shrink-failure.ts). The lanes' outcomes merge into
 * one job's: one tally, one failure, one progress line.
 */
import type { AnyPattern } from '../patterns/types.ts';
import type { Shard } from '../runner/shard.ts';
import { chaos } from './chaos.ts';
import type { ChaosContext, ChaosOptions, ChaosOutcome, Failure, Lane, RunTally } from './chaos-types.ts';
import { emptyTally, explore, type Explored } from './explore.ts';
import { shrinkFailure } from './shrink-failure.ts';

export type { Lane } from './chaos-types.ts';
export { emptyTally } from './explore.ts';

/** Lane j of n inside the job's own shard (or the whole sequence): the draws d with d mod (count·n) = index + count·j. */
export function laneShard(outer: Shard | undefined, lane: number, lanes: number): Shard | undefined {
  if (lanes === 1) return outer;
  const count = outer?.count ?? 1;
  return { index: (outer?.index ?? 0) + count * lane, count: count * lanes };
}

/** Lane j's share of `runs`: as even as it goes, the remainder to the first lanes (so the lanes run draws 0 .. runs-1). */
export const laneRuns = (runs: number, lane: number, lanes: number) => Math.floor(runs / lanes) + (lane < runs % lanes ? 1 : 0);

/** The lanes' tallies as one job's. */
export function sumTallies(tallies: readonly RunTally[]): RunTally {
  const sum = emptyTally();
  for (const t of tallies) {
    sum.runs += t.runs;
    sum.shrinks += t.shrinks;
    sum.discarded += t.discarded;
    sum.discardCauses.push(...t.discardCauses);
    sum.ops += t.ops;
    sum.faults += t.faults;
    sum.failures += t.failures;
    sum.replicationLosses += t.replicationLosses;
    for (const [kind, n] of Object.entries(t.faultCounts)) sum.faultCounts[kind] = (sum.faultCounts[kind] ?? 0) + n;
    if (t.replicationLossNotes?.length) (sum.replicationLossNotes ??= []).push(...t.replicationLossNotes);
  }
  return sum;
}

type OnRun = NonNullable<ChaosContext['onRun']>;
type RunReport = Parameters<OnRun>[1];

/**
 * The chaos job on every lane at once. `onRun` hears of every run with the job's tally (the sum
 * over the lanes) and the number of the job's fresh runs so far, whichever lane ran it.
 */
export async function chaosOnLanes(lanes: readonly Lane[], pattern: AnyPattern, options: ChaosOptions, onRun?: (tally: RunTally, last: RunReport) => void): Promise<ChaosOutcome> {
  if (lanes.length === 1) return chaos({ ...lanes[0], pattern, onRun }, options);
  const started = performance.now();
  const tallies = lanes.map(emptyTally);
  // The job's first failure: which lane, and how far the job was when it showed.
  let first: { lane: number; at: Failure['firstFailure'] } | undefined;
  const outcomes = await Promise.all(
    lanes.map((lane, j) => {
      let failures = 0;
      const laneOnRun: OnRun = (tally, last) => {
        tallies[j] = tally;
        const job = sumTallies(tallies);
        // An undecided run names nothing: the lanes keep looking for one that does.
        if (!last.shrinking && tally.failures > failures && last.verdict !== 'unknown' && !first) {
          first = { lane: j, at: { run: job.runs, seconds: (performance.now() - started) / 1000 } };
        }
        failures = tally.failures;
        onRun?.(job, last);
      };
      const own: ChaosOptions = {
        ...options,
        runs: laneRuns(options.runs, j, lanes.length),
        shard: laneShard(options.shard, j, lanes.length),
        stopEarly: () => (first !== undefined && first.lane !== j) || (options.stopEarly?.() ?? false),
      };
      return own.runs === 0 ? Promise.resolve(undefined) : explore({ ...lane, pattern, onRun: laneOnRun }, own);
    }),
  );
  const merged = mergeOutcomes(outcomes, options, first, performance.now() - started);
  // Every lane whose cluster is still up shrinks, the one that found the failure first.
  const up = lanes.filter((_, j) => !outcomes[j]?.environmentFailure);
  const finder = first === undefined ? undefined : lanes[first.lane];
  const workers = finder === undefined ? up : [finder, ...up.filter((l) => l !== finder)];
  return shrinkFailure(merged, workers, { pattern, options }, (_, last) => onRun?.(merged.tally, last));
}

/** The lanes' outcomes as one job's (a lane given no runs has none). */
export function mergeOutcomes(outcomes: readonly (Explored | undefined)[], options: Pick<ChaosOptions, 'runs' | 'seed'>, first: { lane: number; at: Failure['firstFailure'] } | undefined, ms: number): Explored {
  const ran = outcomes.filter((o): o is Explored => o !== undefined);
  const tally = sumTallies(ran.map((o) => o.tally));
  // The lane that failed first holds the job's failure; without one, any lane's undecided run.
  const failing = first ? outcomes[first.lane] : ran.find((o) => o.failure);
  const failure = failing?.failure && first ? { ...failing.failure, firstFailure: first.at } : failing?.failure;
  const environmentFailure = ran.find((o) => o.environmentFailure)?.environmentFailure;
  // A lane stopped by another's failure says "interrupted": the job was not, it found what it looked for.
  const interrupted = !failure && ran.some((o) => o.interrupted);
  return {
    tally,
    failure,
    // The decided failure that stopped the job, to shrink from (an undecided run names nothing).
    found: first ? failing?.found : undefined,
    seed: options.seed,
    path: failing?.path,
    ms,
    interrupted,
    shortOfRuns: !environmentFailure && !interrupted && !failure && tally.runs < options.runs,
    environmentFailure,
  };
}
