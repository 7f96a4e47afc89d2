// @node-idempotency/core 1.0.11 with @node-idempotency/storage-adapter-redis 1.0.2
// (https://github.com/mahendraHegde/node-idempotency) as a chaoslua module: the idempotency
// pattern, written the way an application (or the library's own HTTP middlewares) uses it, and
// declaring what it answers (docs/module-contract.md). Plain JavaScript, so that the repository
// typechecks without this folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/node-idempotency/store.mjs --pattern idempotency
import { Idempotency, IdempotencyError, IdempotencyErrorCodes } from '@node-idempotency/core';
import { RedisStorageAdapter } from '@node-idempotency/storage-adapter-redis';

/**
 * onRequest says "go ahead" (resolves undefined), "in progress" (throws REQUEST_IN_PROGRESS) or
 * hands back the stored response: the three outcomes, without the stored fingerprint. onResponse
 * (the completion) resolves nothing: void. There is no owner, no release and no renew.
 */
export const capabilities = { idempotency: { register: 'outcome', complete: 'void' } };

// The library stores a request under `<cacheKeyPrefix>:<method>:<path>:<Idempotency-Key header>`;
// the adapter sends the harness's key as the header, on POST /, with the default prefix.
const PREFIX = 'node-idempotency:POST:/:';
export const keys = { prefix: PREFIX };

/**
 * The node-redis v4 client calls the storage adapter makes (set with NX/PX options, get), over the
 * harness's ioredis Cluster. The library's adapter builds a standalone node-redis client of its own
 * (createClient), which cannot follow a Redis Cluster's slots; this is the adapter's client
 * interface, answered by a client that can. Replies are the same: 'OK' or null for SET, the value or
 * null for GET.
 */
function clusterAsNodeRedis(redis) {
  return {
    set: (key, value, opts = {}) => redis.set(key, value, ...(opts.PX !== undefined ? ['PX', opts.PX] : []), ...(opts.NX ? ['NX'] : [])),
    get: (key) => redis.get(key),
    on() {},
    connect: async () => {},
    disconnect: async () => {},
  };
}

export function createStore(redis, options) {
  if (options.pattern !== 'idempotency') throw new Error(`@node-idempotency is an idempotency store, not a ${options.pattern}`);
  const storage = new RedisStorageAdapter();
  storage.client = clusterAsNodeRedis(redis);
  // The library's defaults (in-progress strategy: answer at once, do not wait; a TTL per request,
  // set below from the harness's lease and TTL).
  const idempotency = new Idempotency(storage);
  // The harness's fingerprint is the request body the library hashes (blake2s of its JSON).
  const request = (key, fingerprint, ttlMs) => ({
    headers: { 'idempotency-key': key },
    method: 'POST',
    path: '/',
    body: { fingerprint },
    options: { cacheTTLMS: ttlMs },
  });
  // The completion has no fingerprint argument in the pattern; the library recomputes one from the
  // request body and stores it with the response. The owner's register drew it: keep it per owner.
  const fingerprints = new Map();
  // The requests the library let through (onRequest resolved undefined), by key and owner. The
  // middlewares call onResponse only after the handler ran, and the handler runs only for those: a
  // request answered "in progress", a replay, or an error never reaches onResponse. So a completion
  // by an owner the library never let through is not called (the pattern's answer is void either way).
  const letThrough = new Set();
  return {
    async registerOrGet(key, fingerprint, owner, leaseMs) {
      fingerprints.set(`${key}\0${owner}`, fingerprint);
      try {
        const response = await idempotency.onRequest(request(key, fingerprint, leaseMs));
        if (response === undefined) {
          letThrough.add(`${key}\0${owner}`);
          return ['fresh'];
        }
        return ['completed', response.additional.status, response.body];
      } catch (error) {
        if (error instanceof IdempotencyError && error.code === IdempotencyErrorCodes.REQUEST_IN_PROGRESS) return ['in-progress'];
        // A completed record stored with another fingerprint is refused (FINGERPRINT_MISSMATCH)
        // without its response: the library does not say what is stored, so neither does this.
        throw error;
      }
    },
    async complete(key, owner, status, body, ttlMs) {
      if (!letThrough.has(`${key}\0${owner}`)) return;
      const fingerprint = fingerprints.get(`${key}\0${owner}`);
      await idempotency.onResponse(request(key, fingerprint, ttlMs), { body, additional: { status } });
    },
  };
}
