// rate-limit-redis 6.0.1 (https://github.com/express-rate-limit/rate-limit-redis), the Redis store of
// express-rate-limit, as a chaoslua module: the ratelimit pattern, written the way express-rate-limit
// uses the store, declaring what it answers (docs/module-contract.md). Plain JavaScript, so that the
// repository typechecks without this folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/rate-limit-redis/store.mjs --pattern ratelimit
import { RedisStore } from 'rate-limit-redis';

/** express-rate-limit lets a request through or answers 429: a boolean. */
export const capabilities = { ratelimit: { hit: 'boolean' } };

/** The store keeps the counter of `key` under `<prefix><key>`; the default prefix is `rl:`. */
export const keys = { prefix: 'rl:' };

export function createStore(redis, options) {
  if (options.pattern !== 'ratelimit') throw new Error(`rate-limit-redis is a rate limiter's store, not a ${options.pattern}`);
  // One store per window, as express-rate-limit makes one per middleware: it calls init({ windowMs })
  // once (which loads the scripts), then increment(key) per request. sendCommand is the README's
  // recipe for ioredis, `client.call(command, ...args)`, given the harness's Cluster as the client.
  const stores = new Map();
  const store = (windowSeconds) => {
    if (!stores.has(windowSeconds)) {
      const s = new RedisStore({ sendCommand: (command, ...args) => redis.call(command, ...args) });
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
