/**
 * The bundled reference implementation as a `module:` implementation: what a team's own module
 * looks like to `chaoslua certify --impl module:examples/reference-module/store.ts`.
 *
 * The harness calls createStore(redis, { pattern, namespace }) once per logical client with a
 * connected ioredis Cluster, then calls the pattern's methods with ready Redis keys; each method
 * answers exactly what the reference scripts answer.
 */
import type { Cluster } from 'ioredis';
import { IdempotencyStore, LimiterClient, LockClient } from '../../src/index.ts';

export async function createStore(redis: Cluster, options: { pattern: 'idempotency' | 'lock' | 'ratelimit' }) {
  switch (options.pattern) {
    case 'idempotency': {
      const { calls } = await IdempotencyStore.open(redis);
      return {
        registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
          calls.registerOrGet(key, fingerprint, owner, leaseMs),
        complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
          calls.complete(key, owner, status, body, ttlMs),
        release: (key: string, owner: string) => calls.release(key, owner),
        renew: (key: string, owner: string, leaseMs: number) => calls.renew(key, owner, leaseMs),
      };
    }
    case 'lock': {
      const lock = await LockClient.open(redis);
      return {
        acquire: (key: string, token: string, ttlMs: number) => lock.acquireRaw(key, token, ttlMs),
        release: (key: string, token: string) => lock.releaseRaw(key, token),
        extend: (key: string, token: string, ttlMs: number) => lock.extendRaw(key, token, ttlMs),
      };
    }
    case 'ratelimit': {
      const limiter = await LimiterClient.open(redis);
      return { hit: (key: string, limit: number, windowSeconds: number) => limiter.hitRaw(key, limit, windowSeconds) };
    }
  }
}
