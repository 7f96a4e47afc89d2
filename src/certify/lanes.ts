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
import { emptyTally, explore, type Explored, type LaneExplored } from './explore.ts';
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
export const laneRuns = (runs: number, lane: number, lanes: number) =>
  Math.floor(runs / lanes) + (lane < runs % lanes ? 1 : 0);

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
    if (t.clockLosses) sum.clockLosses = (sum.clockLosses ?? 0) + t.clockLosses;
    if (t.clockLossNotes?.length) (sum.clockLossNotes ??= []).push(...t.clockLossNotes);
  }
  return sum;
}

type OnRun = NonNullable<ChaosContext['onRun']>;
type RunReport = Parameters<OnRun>[1];

/** A fresh cluster with the implementation opened on it, for a lane whose cluster was lost. */
export type ReplaceLane = () => Promise<Lane>;

/**
 * The chaos job on every lane at once. `onRun` hears of every run with the job's tally (the sum
 * over the lanes) and the number of the job's fresh runs so far, whichever lane ran it. A lane
 * whose cluster cannot be healed is given a fresh one by `replace` (once): the run it could not
 * finish is discarded and reported, and the lane goes on from its next draw. Without `replace`, or
 * when the second cluster is lost too, that is the job's environment failure.
 */
export async function chaosOnLanes(
  lanes: readonly Lane[],
  pattern: AnyPattern,
  options: ChaosOptions,
  onRun?: (tally: RunTally, last: RunReport) => void,
  replace?: ReplaceLane,
): Promise<ChaosOutcome> {
  if (lanes.length === 1) return chaos({ ...lanes[0], pattern, onRun }, options);
  const started = performance.now();
  const tallies = lanes.map(emptyTally);
  const current = [...lanes];
  // The job's first failure: which lane, and how far the job was when it showed.
  let first: { lane: number; at: Failure['firstFailure'] } | undefined;
  const runLane = async (j: number): Promise<LaneExplored | undefined> => {
    let failures = 0;
    // `before`: what the lane ran on a cluster it lost, added to what it runs now.
    const laneOnRun =
      (before?: RunTally): OnRun =>
      (tally, last) => {
        tallies[j] = before ? sumTallies([before, tally]) : tally;
        const job = sumTallies(tallies);
        // An undecided run names nothing: the lanes keep looking for one that does.
        if (!last.shrinking && tallies[j].failures > failures && last.verdict !== 'unknown' && !first) {
          first = { lane: j, at: { run: job.runs, seconds: (performance.now() - started) / 1000 } };
        }
        failures = tallies[j].failures;
        onRun?.(job, last);
      };
    const own: ChaosOptions = {
      ...options,
      runs: laneRuns(options.runs, j, lanes.length),
      shard: laneShard(options.shard, j, lanes.length),
      stopEarly: () => (first !== undefined && first.lane !== j) || (options.stopEarly?.() ?? false),
    };
    if (own.runs === 0) return undefined;
    const lost = await explore({ ...lanes[j], pattern, onRun: laneOnRun() }, own);
    if (!lost.environmentFailure || !replace || own.stopEarly!()) return lost;
    const fresh = await replace().catch(() => undefined);
    if (!fresh) return lost;
    current[j] = fresh;
    const before = replacedTally(lost);
    tallies[j] = before;
    const next = await explore(
      { ...fresh, pattern, onRun: laneOnRun(before) },
      { ...own, runs: own.runs - lost.tally.runs, skipDraws: lost.ownDraws },
    );
    return {
      ...next,
      tally: sumTallies([before, next.tally]),
      failure: next.failure ?? lost.failure,
      ms: lost.ms + next.ms,
      ownDraws: lost.ownDraws + next.ownDraws,
    };
  };
  const outcomes = await Promise.all(lanes.map((_, j) => runLane(j)));
  const merged = mergeOutcomes(outcomes, options, first, performance.now() - started);
  // Every lane whose cluster is still up shrinks, the one that found the failure first.
  const up = current.filter((_, j) => !outcomes[j]?.environmentFailure);
  const finder = first === undefined ? undefined : current[first.lane];
  const workers = finder === undefined ? up : [finder, ...up.filter((l) => l !== finder)];
  return shrinkFailure(merged, workers, { pattern, options }, (_, last) => onRun?.(merged.tally, last));
}

/** A lost cluster's tally, its unfinished run counted as discarded, the cause kept. */
export function replacedTally(lost: ChaosOutcome): RunTally {
  const tally = sumTallies([lost.tally]);
  tally.discarded++;
  tally.discardCauses.push(`cluster replaced: ${lost.environmentFailure}`);
  return tally;
}

/** The lanes' outcomes as one job's (a lane given no runs has none). */
export function mergeOutcomes(
  outcomes: readonly (Explored | undefined)[],
  options: Pick<ChaosOptions, 'runs' | 'seed'>,
  first: { lane: number; at: Failure['firstFailure'] } | undefined,
  ms: number,
): Explored {
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
