import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): the compare-and-delete lock's release problem — release reads the token, compares it on the client, then
 * DELs in a second round trip. If the lock expires and another holder takes it between the GET
 * and the DEL, the DEL removes the new holder's lock. (A DEL that finds nothing is reported as
 * nil, so only the stale delete itself can give it away.) acquire and extend are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'lock', 'acquire');
  const extend = referenceCommand(redis, 'lock', 'extend_if_matches');
  return {
    acquire: (key: string, token: string, ttlMs: number) => acquire(key, token, ttlMs),
    async release(key: string, token: string) {
      const stored = await redis.get(key);
      if (stored === null) return null;
      if (stored !== token) return -1;
      // The key vanished between the two calls: report it absent, as the reference would have.
      return (await redis.del(key)) === 1 ? 1 : null;
    },
    extend: (key: string, token: string, ttlMs: number) => extend(key, token, ttlMs),
  };
}
