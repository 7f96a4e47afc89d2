/**
 * The fixed-window limiter (lua/ratelimit/fixed_window.lua) as a map of keys to
 * (count, deadline): a hit is blocked (0) when the count has reached the limit, else counted and
 * allowed (1); the hit that creates the counter starts its window of windowSeconds.
 */
import type { OpRecord } from '../../../../src/history/types.ts';
import { live, type Store } from './simulate.ts';

export interface HitInput {
  readonly op: 'hit';
  readonly limit: number;
  readonly windowSeconds: number;
}

export function ratelimitStore(): Store<HitInput> {
  const keys = new Map<string, { count: number; deadline: number }>();
  return {
    apply(key, input, now) {
      const found = keys.get(key);
      const counter = live(found, now) ? found : undefined;
      if (counter && counter.count >= input.limit) return 0;
      if (counter) counter.count++;
      else keys.set(key, { count: 1, deadline: now + input.windowSeconds * 1000 });
      return 1;
    },
  };
}

/**
 * An allowed hit answered 0 (blocked) where that cannot be: blocking needs `limit` allowed hits on
 * the key before it, and fewer than `limit` other hits (whatever their outcome but refused) were
 * even invoked before it replied. Undefined when no allowed hit qualifies.
 */
export function corruptRatelimit(
  ops: readonly OpRecord<HitInput, unknown>[],
): { corrupted: OpRecord<HitInput, unknown>; original: OpRecord<HitInput, unknown> } | undefined {
  const original = ops.find(
    (op) =>
      op.outcome === 'ok' &&
      op.output === 1 &&
      ops.filter(
        (other) =>
          other !== op && other.key === op.key && other.outcome !== 'fail' && other.invokedAt <= op.completedAt,
      ).length < op.input.limit,
  );
  return original && { original, corrupted: { ...original, output: 0 } };
}
