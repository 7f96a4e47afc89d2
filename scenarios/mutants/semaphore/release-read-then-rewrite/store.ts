import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): release done from the client as read-modify-write — read every holder with its
 * deadline, drop this one in the client, then write the set back (DEL and ZADD the rest) in a
 * second round trip. A holder that took a place between the two is written out of the set: it is
 * told it holds a place it no longer has. acquire and refresh are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'semaphore', 'acquire');
  const refresh = referenceCommand(redis, 'semaphore', 'refresh');
  return {
    acquire: (key: string, token: string, limit: number, ttlMs: number) => acquire(key, token, limit, ttlMs),
    async release(key: string, token: string) {
      const now = Date.now();
      const flat = await redis.zrange(key, 0, -1, 'WITHSCORES');
      const holders: [string, number][] = [];
      for (let i = 0; i < flat.length; i += 2) holders.push([flat[i], Number(flat[i + 1])]);
      const live = holders.filter(([, deadline]) => deadline > now);
      if (!live.some(([name]) => name === token)) return 0;
      const rest = live.filter(([name]) => name !== token);
      const write = redis.multi().del(key);
      if (rest.length)
        write
          .zadd(key, ...rest.flatMap(([name, deadline]) => [deadline, name]))
          .pexpireat(key, Math.max(...rest.map(([, d]) => d)));
      await write.exec();
      return 1;
    },
    refresh: (key: string, token: string, ttlMs: number) => refresh(key, token, ttlMs),
  };
}
