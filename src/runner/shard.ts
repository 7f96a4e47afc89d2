/**
 * Shards: one budget of runs split across n machines (a CI matrix, a Kubernetes Indexed Job). All
 * shards draw from the same seed the same sequence of schedules one job would; shard k of n runs the
 * draws whose index is k modulo n and skips the others (drawing a schedule costs microseconds,
 * running it seconds). So n shards of R runs each run exactly the draws 0 .. nR-1 that one job of nR
 * runs would, and a failure's `--seed S --path P` replays in a plain job. A discarded run (the
 * cluster needed a second heal) is replaced by the shard's next draw of its own, where one job would
 * have taken the next draw of all: the same only when nothing is discarded, as for one job run twice.
 */
export interface Shard {
  /** 0-based: shard k of 0 .. count-1. */
  readonly index: number;
  readonly count: number;
}

export class ShardError extends Error {
  override readonly name = 'ShardError';
}

/** Most shards: far more than any matrix, small enough that a shard's draws stay cheap. */
export const MAX_SHARDS = 1_000;

/** `k/n` (0 <= k < n), as `--shard $JOB_COMPLETION_INDEX/8` writes it. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new ShardError(`--shard must be k/n (shard k of n, counted from 0), got '${text}'`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ShardError(`--shard ${text}: n must be in [1, ${MAX_SHARDS}]`);
  if (index >= count)
    throw new ShardError(
      `--shard ${text}: k must be below n (shards are counted from 0: 0/${count} .. ${count - 1}/${count})`,
    );
  return { index, count };
}

/** Whether the fresh draw with this index (0-based, in the seed's sequence) is this shard's to run. */
export const ownsDraw = (shard: Shard | undefined, draw: number) =>
  shard === undefined || draw % shard.count === shard.index;

/** Draws to ask fast-check for: enough that the shard sees its own `perShard` draws, times `count`. */
export const drawsFor = (perShard: number, shard: Shard | undefined) => perShard * (shard?.count ?? 1);

export const describeShard = (shard: Shard) => `${shard.index}/${shard.count}`;
