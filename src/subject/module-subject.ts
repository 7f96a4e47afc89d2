import type { Cluster as IORedisCluster } from 'ioredis';
import { operationsOf, type PatternName } from '../patterns/index.ts';
import { ImplSpecError } from './impl-spec.ts';
import { checkModuleSyntax } from './module-syntax.ts';
import { importImplementation, storeFactoryOf } from './module-import.ts';
import { redisKeyFor } from './redis-keys.ts';
import type { Subject } from './types.ts';

/** The methods a module's store must have: one per operation of the pattern, in its order. */
const methodsOf = (pattern: PatternName): string[] => Object.values(operationsOf(pattern)).map((o) => o.method);

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
  const operations = operationsOf(pattern);
  const missing = methodsOf(pattern).filter((m) => typeof store?.[m] !== 'function');
  if (missing.length) throw new ImplSpecError(`--impl module:${file}: the store lacks ${missing.join(', ')} (a ${pattern} store needs ${methodsOf(pattern).join(', ')})`);
  const methods = store as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    name: `module:${file}`,
    redisKey: (key) => redisKeyFor(pattern, namespace, key),
    async invoke(key, input) {
      const op = (input as { op: string }).op;
      const operation = Object.hasOwn(operations, op) ? operations[op] : undefined;
      if (!operation) throw new TypeError(`module subject: no ${pattern} method for op ${op}`);
      // The method takes the model input's arguments in the order the pattern declares them.
      const args = Object.keys(operation.args).map((name) => (input as Record<string, unknown>)[name]);
      return methods[operation.method](redisKeyFor(pattern, namespace, key), ...args);
    },
    async close() {
      if (typeof store?.close === 'function') await (store.close as () => Promise<void>)();
    },
  };
}
