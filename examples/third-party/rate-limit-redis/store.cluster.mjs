// rate-limit-redis 6.0.1 as store.mjs, configured for a Redis Cluster: its `sendCommandCluster`
// hook instead of the README's ioredis recipe, so that SCRIPT LOAD reaches the masters that run
// the script (README.md, "Configuration chosen, and why").
//
// certify: chaoslua certify --impl module:examples/third-party/rate-limit-redis/store.cluster.mjs --pattern ratelimit
import { RedisStore } from 'rate-limit-redis';

export const capabilities = { ratelimit: { hit: 'boolean' } };
export const keys = { prefix: 'rl:' };

/**
 * The store's commands over an ioredis Cluster. A command with a key is routed by ioredis as
 * usual. SCRIPT LOAD carries no key (and the store's first load has none at all), so it goes to
 * every master: the SHA is the same everywhere, and whichever master later answers NOSCRIPT (after
 * a SCRIPT FLUSH, a restart or a failover) gets it again on the store's reload.
 */
function sendCommandCluster(redis) {
  return async ({ command }) => {
    const [name, ...args] = command;
    if (name.toUpperCase() !== 'SCRIPT') return redis.call(name, ...args);
    const shas = await Promise.all(redis.nodes('master').map((node) => node.call(name, ...args)));
    return shas[0];
  };
}

export function createStore(redis, options) {
  if (options.pattern !== 'ratelimit') throw new Error(`rate-limit-redis is a rate limiter's store, not a ${options.pattern}`);
  const stores = new Map();
  const store = (windowSeconds) => {
    if (!stores.has(windowSeconds)) {
      const s = new RedisStore({ sendCommandCluster: sendCommandCluster(redis) });
      stores.set(windowSeconds, s.init({ windowMs: windowSeconds * 1000 }).then(() => s));
    }
    return stores.get(windowSeconds);
  };
  return {
    async hit(key, limit, windowSeconds) {
      const { totalHits } = await (await store(windowSeconds)).increment(key);
      // express-rate-limit 8.7.5 (dist/index.mjs): `if (totalHits > limit)` -> 429, else next().
      return totalHits <= limit;
    },
  };
}
