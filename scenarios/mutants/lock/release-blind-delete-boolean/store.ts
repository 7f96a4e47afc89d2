import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip), answering at the boolean level as redlock and redis-semaphore do: release deletes
 * the lock without comparing the token and answers whether it deleted something. A boolean cannot
 * tell "absent" from "another holder", but a release that deletes another holder's lock answers
 * true where the model prescribes false, so the slip still shows. acquire and extend are the
 * reference scripts, answered as booleans.
 */
export const capabilities = { lock: { acquire: 'boolean', release: 'boolean', extend: 'boolean' } };

const BLIND_RELEASE = `if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
return redis.call('DEL', KEYS[1])`;

export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'lock', 'acquire');
  const extend = referenceCommand(redis, 'lock', 'extend_if_matches');
  redis.defineCommand('mutant_lock_blind_release', { numberOfKeys: 1, lua: BLIND_RELEASE });
  const release = (
    redis as unknown as Record<string, (key: string) => Promise<unknown>>
  ).mutant_lock_blind_release.bind(redis);
  return {
    acquire: async (key: string, token: string, ttlMs: number) => (await acquire(key, token, ttlMs)) === 1,
    release: async (key: string, _token: string) => (await release(key)) === 1,
    extend: async (key: string, token: string, ttlMs: number) => (await extend(key, token, ttlMs)) === 1,
  };
}
