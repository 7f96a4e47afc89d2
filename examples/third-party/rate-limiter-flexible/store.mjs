// rate-limiter-flexible 11.4.0's RateLimiterRedis (https://github.com/animir/node-rate-limiter-flexible)
// as a chaoslua module: the ratelimit pattern, written the way an application uses the library,
// declaring what it answers (docs/module-contract.md). Plain JavaScript, so that the repository
// typechecks without this folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/rate-limiter-flexible/store.mjs --pattern ratelimit
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** consume() resolves when the point was granted and rejects with a RateLimiterRes when not: a boolean. */
export const capabilities = { ratelimit: { hit: 'boolean' } };

/** The library keeps the counter of `key` under `<keyPrefix>:<key>`; the default prefix is `rlflx`. */
export const keys = { prefix: 'rlflx:' };

export function createStore(redis, options) {
  if (options.pattern !== 'ratelimit') throw new Error(`rate-limiter-flexible's RateLimiterRedis is a rate limiter, not a ${options.pattern}`);
  // One limiter per (limit, window), as an application configures one per policy: points is the
  // limit, duration the window in seconds. Everything else is the library's default (keyPrefix
  // rlflx, no in-memory block, no insurance limiter, no execEvenly), as a team would leave it.
  const limiters = new Map();
  const limiter = (limit, windowSeconds) => {
    const name = `${limit}/${windowSeconds}`;
    if (!limiters.has(name)) limiters.set(name, new RateLimiterRedis({ storeClient: redis, points: limit, duration: windowSeconds }));
    return limiters.get(name);
  };
  return {
    async hit(key, limit, windowSeconds) {
      try {
        await limiter(limit, windowSeconds).consume(key, 1);
        return true;
      } catch (rejection) {
        // Blocked: the library rejects with its result object (consumed > points). Anything else
        // is a Redis or connection error, and stays one.
        if (rejection instanceof RateLimiterRes) return false;
        throw rejection;
      }
    },
  };
}
