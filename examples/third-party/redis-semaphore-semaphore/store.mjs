// redis-semaphore 5.8.0's Semaphore (https://github.com/swarthy/redis-semaphore) as a chaoslua
// module: the semaphore pattern, written the way an application uses the library, declaring what
// the library answers (docs/module-contract.md). Plain JavaScript, so that the repository
// typechecks without this folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/redis-semaphore-semaphore/store.mjs --pattern semaphore
import semaphore from 'redis-semaphore';

const { Semaphore } = semaphore;

/**
 * acquire answers whether a place was taken (tryAcquire: prune, ZCARD < limit, ZADD); release
 * resolves nothing (a ZREM whose count the library drops); refresh is the library's own refresh of a
 * place taken elsewhere (`acquiredExternally`), which answers whether the identifier was a holder.
 * reacquire 'counts': the library's acquire counts first, the caller included, so a holder that
 * acquires again on a full set is refused and not renewed (its way to keep a place is refresh); with
 * room it is renewed (ZADD updates its score). A documented choice, declared so the certificate judges it.
 */
export const capabilities = { semaphore: { acquire: 'boolean', release: 'void', refresh: 'boolean', variants: { reacquire: 'counts' } } };

/** The library keeps the holders of `key` in a sorted set under `semaphore:<key>` (the hash tag is kept). */
export const keys = { prefix: 'semaphore:' };

export function createStore(redis, options) {
  if (options.pattern !== 'semaphore') throw new Error(`redis-semaphore's Semaphore is a semaphore, not a ${options.pattern}`);
  // refreshInterval 0: the library refreshes a held place on a timer by default (and throws from the
  // timer when a refresh fails); the harness decides when a holder refreshes. acquireAttemptsLimit 1:
  // one attempt, no polling (the sessions poll). The harness's token is the library's identifier,
  // the member stored in the sorted set; lockTimeout is the TTL the harness asks for.
  const acquiring = (key, token, limit, ttlMs) =>
    new Semaphore(redis, key, limit, { identifier: token, lockTimeout: ttlMs, refreshInterval: 0, acquireAttemptsLimit: 1, retryInterval: 0 });
  // release and refresh take no limit in the pattern; the library's constructor insists on one and
  // its refresh script ignores it (ZSCORE, not ZCARD), so any positive number does.
  const taken = (key, token, ttlMs) =>
    new Semaphore(redis, key, 1, { identifier: token, acquiredExternally: true, lockTimeout: ttlMs ?? 1, refreshInterval: 0 });
  return {
    acquire: (key, token, limit, ttlMs) => acquiring(key, token, limit, ttlMs).tryAcquire(),
    release: (key, token) => taken(key, token).release(),
    refresh: (key, token, ttlMs) => taken(key, token, ttlMs).tryAcquire(),
  };
}
