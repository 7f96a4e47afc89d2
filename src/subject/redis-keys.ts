import type { PatternName } from '../plan/schedule.ts';
import { scopedKey } from './idempotency-keys.ts';

/**
 * The Redis key every implementation under test is handed for a logical key: one hash tag around
 * everything that identifies it, so all an operation touches lives in one slot.
 */
export function redisKeyFor(pattern: PatternName, namespace: string, logicalKey: string): string {
  switch (pattern) {
    case 'idempotency':
      return scopedKey(namespace, 'certify', logicalKey);
    case 'lock':
      return `lock:{${namespace}:${logicalKey}}`;
    case 'ratelimit':
      return `ratelimit:{${namespace}:${logicalKey}}`;
  }
}
