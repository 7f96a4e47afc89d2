// redis-semaphore 5.8.0's Mutex (https://github.com/swarthy/redis-semaphore) as a chaoslua module:
// implementation of the lock pattern, written the way an application uses the library, and
// declaring what the library answers (docs/module-contract.md). Plain JavaScript, so that the
// repository typechecks without this folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/redis-semaphore-mutex/store.mjs --pattern lock
import semaphore from 'redis-semaphore';

const { Mutex } = semaphore;

/**
 * acquire answers whether the lock was taken (tryAcquire: a SET NX PX); release resolves nothing
 * whatever its compare-and-delete script did; extend is the library's own refresh of a lock taken
 * elsewhere (`acquiredExternally`), which answers whether the stored identifier was ours.
 */
export const capabilities = { lock: { acquire: 'boolean', release: 'void', extend: 'boolean' } };

/** The library keeps the lock of `key` under `mutex:<key>` (the hash tag inside the key is kept). */
export const keys = { prefix: 'mutex:' };

export function createStore(redis, options) {
  if (options.pattern !== 'lock') throw new Error(`redis-semaphore's Mutex is a lock, not a ${options.pattern}`);
  // refreshInterval 0: the library refreshes a held lock on a timer by default; the harness decides
  // when a holder extends. acquireAttemptsLimit 1: one SET NX, no polling (the sessions poll).
  // The harness's token is the library's identifier, the value stored in the key.
  const held = (key, token, ttlMs) => new Mutex(redis, key, { identifier: token, lockTimeout: ttlMs, refreshInterval: 0, acquireAttemptsLimit: 1, retryInterval: 0 });
  const taken = (key, token, ttlMs) => new Mutex(redis, key, { identifier: token, acquiredExternally: true, lockTimeout: ttlMs ?? 1, refreshInterval: 0 });
  return {
    acquire: (key, token, ttlMs) => held(key, token, ttlMs).tryAcquire(),
    release: (key, token) => taken(key, token).release(),
    extend: (key, token, ttlMs) => taken(key, token, ttlMs).tryAcquire(),
  };
}
