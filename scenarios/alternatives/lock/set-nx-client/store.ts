import type { Cluster } from 'ioredis';

/**
 * Lock, alternative: acquire is one plain SET NX PX from the client (a single command is atomic,
 * no script needed); release and extend compare the token inside a script (a client-side GET then
 * DEL would race with the next holder), called through ioredis commands.
 */
const COMPARE = `local stored = redis.call('GET', KEYS[1])
if not stored then return nil end
if stored ~= ARGV[1] then return -1 end`;

type Call = (key: string, ...args: (string | number)[]) => Promise<unknown>;

function command(redis: Cluster, name: string, lua: string): Call {
  redis.defineCommand(name, { numberOfKeys: 1, lua });
  const fn = (redis as unknown as Record<string, Call>)[name];
  return (key, ...args) => fn.call(redis, key, ...args);
}

export function createStore(redis: Cluster) {
  const release = command(redis, 'lockAltRelease', `${COMPARE}\nreturn redis.call('DEL', KEYS[1])`);
  const extend = command(redis, 'lockAltExtend', `${COMPARE}\nreturn redis.call('PEXPIRE', KEYS[1], ARGV[2])`);
  return {
    async acquire(key: string, token: string, ttlMs: number) {
      return (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK' ? 1 : 0;
    },
    release: (key: string, token: string) => release(key, token),
    extend: (key: string, token: string, ttlMs: number) => extend(key, token, ttlMs),
  };
}
