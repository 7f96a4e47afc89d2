import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): extend done from the client — GET the token, compare, then PEXPIRE in a second
 * round trip. If the lock expires and another holder takes it between the two, the stale holder is
 * told it still holds the lock, and the new holder's TTL is moved. acquire and release are the
 * reference scripts.
 */
export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'lock', 'acquire');
  const release = referenceCommand(redis, 'lock', 'remove_if_matches');
  return {
    acquire: (key: string, token: string, ttlMs: number) => acquire(key, token, ttlMs),
    release: (key: string, token: string) => release(key, token),
    async extend(key: string, token: string, ttlMs: number) {
      const stored = await redis.get(key);
      if (stored === null) return null;
      if (stored !== token) return -1;
      // The key vanished between the two calls: report it absent, as the reference would have.
      return (await redis.pexpire(key, ttlMs)) === 1 ? 1 : null;
    },
  };
}
