import type { Cluster as IORedisCluster } from 'ioredis';
import type { PatternName } from '../generator/schedule.ts';
import { ImplSpecError } from './impl-spec.ts';
import { checkModuleSyntax } from './module-syntax.ts';
import { importImplementation, storeFactoryOf } from './module-import.ts';
import { redisKeyFor } from './redis-keys.ts';
import type { Subject } from './types.ts';

/** The methods a module's store must have, per pattern, and how a model input maps onto them. */
const CONTRACT: Record<PatternName, Record<string, (input: any) => unknown[]>> = {
  idempotency: {
    registerOrGet: (i) => [i.fingerprint, i.owner, i.leaseMs],
    complete: (i) => [i.owner, i.status, i.body, i.ttlMs],
    release: (i) => [i.owner],
    renew: (i) => [i.owner, i.leaseMs],
  },
  lock: {
    acquire: (i) => [i.token, i.ttlMs],
    release: (i) => [i.token],
    extend: (i) => [i.token, i.ttlMs],
  },
  ratelimit: { hit: (i) => [i.limit, i.windowSeconds] },
};

const METHOD_OF: Record<string, string> = { register: 'registerOrGet', complete: 'complete', release: 'release', renew: 'renew', acquire: 'acquire', extend: 'extend', hit: 'hit' };

export type StoreFactory = (redis: IORedisCluster, options: { pattern: PatternName; namespace: string }) => unknown;

/** Import a module:PATH implementation and find its factory (named createStore, else default). */
export async function loadStoreFactory(file: string): Promise<StoreFactory> {
  await checkModuleSyntax(file);
  const factory = storeFactoryOf(await importImplementation(file));
  if (typeof factory !== 'function') throw new ImplSpecError(`--impl module:${file} exports neither createStore nor a default function`);
  return factory as StoreFactory;
}

/** A module's store as a Subject: the harness hands it ready Redis keys and the model's arguments. */
export async function moduleSubject(factory: StoreFactory, file: string, pattern: PatternName, redis: IORedisCluster, namespace: string): Promise<Subject> {
  const store = (await factory(redis, { pattern, namespace })) as Record<string, unknown> | undefined;
  const missing = Object.keys(CONTRACT[pattern]).filter((m) => typeof store?.[m] !== 'function');
  if (missing.length) throw new ImplSpecError(`--impl module:${file}: the store lacks ${missing.join(', ')} (a ${pattern} store needs ${Object.keys(CONTRACT[pattern]).join(', ')})`);
  const methods = store as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    name: `module:${file}`,
    redisKey: (key) => redisKeyFor(pattern, namespace, key),
    async invoke(key, input) {
      const op = (input as { op: string }).op;
      const method = METHOD_OF[op];
      const args = CONTRACT[pattern][method]?.(input);
      if (!args) throw new TypeError(`module subject: no ${pattern} method for op ${op}`);
      return methods[method](redisKeyFor(pattern, namespace, key), ...args);
    },
    async close() {
      if (typeof store?.close === 'function') await (store.close as () => Promise<void>)();
    },
  };
}
