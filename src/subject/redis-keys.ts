import { PATTERNS, type PatternName } from '../patterns/index.ts';

/**
 * The Redis key every implementation under test is handed for a logical key (each pattern's
 * `redisKey`): one hash tag around everything that identifies it, so all an operation touches lives in one slot.
 */
export function redisKeyFor(pattern: PatternName, namespace: string, logicalKey: string): string {
  return PATTERNS[pattern].redisKey(namespace, logicalKey);
}
