/**
 * Shrinking a failure with several workers at once. fast-check shrinks one candidate at a time:
 * from a failing value it walks the value's shrink stream and moves to the first candidate that
 * still fails. A chaos run mostly waits (on faults, heals, leases), so here the next k candidates
 * of the stream run side by side, one per worker (a cluster), and the first of them *in stream
 * order* that fails is taken: the same candidate fast-check would take, so the same minimal
 * counterexample for a deterministic property. It saves wall time when candidates pass (k are
 * judged in the time of one); a batch whose first candidate fails has waited for k runs to use one
 * (measured on 2 cores: from about as long as one cluster to 3.4 times sooner, docs/benchmarks.md).
 *
 * The budget counts the candidates fast-check would have run (up to the first failing one of each
 * batch): the ones run beside it and thrown away cost no wall time, so N workers with the budget
 * of one reach the same counterexample, sooner.
 *
 * A time limit (`deadline`) ends the search before a batch that would not finish in time, judged
 * by the last batch's length: the smallest failure so far is kept, and it is still a prefix of the
 * search one worker would make (so its path replays it), only a shorter one.
 *
 * The path it reports is fast-check's (`run:shrink:shrink…`, each shrink the candidate's index in
 * its stream), so `fc.check(property, { seed, path })` and `--seed S --path P` replay it.
 */
import type { IAsyncProperty, IAsyncPropertyWithHooks, Stream, Value } from 'fast-check';

/** A failing value where the search starts, and the fast-check path that leads to it. */
export interface ShrinkStart<T, R> {
  readonly value: Value<T>;
  readonly path: string;
  /** What the failing attempt showed (its history and verdict). */
  readonly failed: R;
}

export interface ShrinkResult<T, R> {
  readonly value: Value<T>;
  readonly path: string;
  readonly failed: R;
  /** Candidates fast-check would have run to get here (what the budget counts). */
  readonly attempts: number;
  /** Candidates run, the ones run beside a failing one and thrown away included. */
  readonly runs: number;
  readonly stopped: ShrinkStop;
}

/** Why a shrink search stopped: no smaller candidate fails, the budget, the time limit, or no worker left. */
export type ShrinkStop = 'minimal' | 'budget' | 'time' | 'workers';

/** A worker could not run its candidate (its cluster could not be healed): it takes no more. */
export class WorkerLost extends Error {
  override readonly name = 'WorkerLost';
}

export interface ShrinkPlan<T, W, R> {
  /** fast-check's shrinker of the property's values (IRawProperty.shrink). */
  readonly shrink: (value: Value<T>) => Stream<Value<T>>;
  readonly workers: readonly W[];
  /** Most candidates fast-check would run; then the smallest failure so far is kept. */
  readonly budget: number;
  /** Run one candidate on one worker: what it showed when it failed, undefined when it passed. */
  readonly attempt: (worker: W, value: T) => Promise<R | undefined>;
  /** When to start no further batch (ms on `now`'s clock); absent: no time limit. */
  readonly deadline?: number;
  /** The clock; default performance.now. */
  readonly now?: () => number;
}

export async function shrinkInBatches<T, W, R>(
  start: ShrinkStart<T, R>,
  plan: ShrinkPlan<T, W, R>,
): Promise<ShrinkResult<T, R>> {
  let current = { value: start.value, path: start.path, failed: start.failed };
  const workers = [...plan.workers];
  let attempts = 0;
  let runs = 0;
  let stream = plan.shrink(current.value);
  let index = 0; // of the next candidate in the current stream
  const now = plan.now ?? (() => performance.now());
  let lastBatchMs = 0;
  let stopped: ShrinkStop = 'budget';
  for (;;) {
    if (workers.length === 0) {
      stopped = 'workers';
      break;
    }
    if (attempts >= plan.budget) break;
    // A batch lasts about as long as the last one did: start none that would end past the deadline.
    const batchStart = now();
    if (plan.deadline !== undefined && batchStart + lastBatchMs > plan.deadline) {
      stopped = 'time';
      break;
    }
    const batch: { value: Value<T>; index: number }[] = [];
    while (batch.length < Math.min(workers.length, plan.budget - attempts)) {
      const next = stream.next();
      if (next.done) break;
      batch.push({ value: next.value, index: index++ });
    }
    if (batch.length === 0) {
      stopped = 'minimal'; // nothing smaller fails
      break;
    }
    runs += batch.length;
    const lost = new Set<W>();
    const outcomes = await Promise.all(
      batch.map(({ value }, i) =>
        plan.attempt(workers[i], value.value).catch((error: unknown) => {
          if (!(error instanceof WorkerLost)) throw error;
          lost.add(workers[i]);
          return undefined; // not known to fail: never shrink towards it
        }),
      ),
    );
    lastBatchMs = now() - batchStart;
    for (let w = workers.length - 1; w >= 0; w--) if (lost.has(workers[w])) workers.splice(w, 1);
    const first = outcomes.findIndex((o) => o !== undefined);
    attempts += first < 0 ? batch.length : first + 1;
    if (first < 0) continue; // none of these fails: the next candidates of the same stream
    const taken = batch[first];
    current = { value: taken.value, path: `${current.path}:${taken.index}`, failed: outcomes[first] as R };
    stream = plan.shrink(taken.value);
    index = 0;
  }
  return { ...current, attempts, runs, stopped };
}

/**
 * A fast-check path continued by a run inside a replay of `base` (fast-check's own rule: the
 * replay's first index adds to the base's last).
 */
export function continuePath(base: string | undefined, path: string): string {
  if (!base) return path;
  const head = base.split(':');
  const tail = path.split(':');
  return [...head.slice(0, -1), String(Number(head[head.length - 1]) + Number(tail[0])), ...tail.slice(1)].join(':');
}

/**
 * The property with the fast-check Value (value and shrink context) of each schedule it hands out
 * kept, so a failure found by fc.check can be shrunk here rather than by fc.check.
 */
export function recordingValues<T extends unknown[]>(
  property: IAsyncPropertyWithHooks<T>,
): { property: IAsyncProperty<T>; valueOf: (first: T[0]) => Value<T> | undefined } {
  const seen = new WeakMap<object, Value<T>>();
  const keep = (v: Value<T>) => {
    if (typeof v.value_[0] === 'object' && v.value_[0] !== null) seen.set(v.value_[0] as object, v);
    return v;
  };
  return {
    property: {
      isAsync: () => true,
      generate: (mrng, runId) => keep(property.generate(mrng, runId)),
      shrink: (value) => property.shrink(value).map(keep),
      run: (v) => property.run(v),
      runBeforeEach: () => property.runBeforeEach(),
      runAfterEach: () => property.runAfterEach(),
    },
    valueOf: (first) => (typeof first === 'object' && first !== null ? seen.get(first as object) : undefined),
  };
}
