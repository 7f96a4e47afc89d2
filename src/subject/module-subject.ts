import { AsyncLocalStorage } from 'node:async_hooks';
import type { Cluster as IORedisCluster } from 'ioredis';
import type { Durability } from '../plan/durability.ts';
import { operationsOf, type PatternName } from '../patterns/index.ts';
import { ImplSpecError } from './impl-spec.ts';
import { checkModuleSyntax } from './module-syntax.ts';
import { importImplementation, storeFactoryOf } from './module-import.ts';
import { redisKeyFor } from './redis-keys.ts';
import type { Receipt, Subject } from './types.ts';

/** The methods a module's store must have: one per operation of the pattern, in its order. */
const methodsOf = (pattern: PatternName): string[] => Object.values(operationsOf(pattern)).map((o) => o.method);

/** `createStore`'s options; `durability` only with `--durability wait:N:T` (docs/module-contract.md). */
export interface StoreFactoryOptions {
  readonly pattern: PatternName;
  readonly namespace: string;
  readonly durability?: ModuleDurability;
}

/**
 * What a module is told with `--durability`: WAIT `replicas` `timeoutMs` after each write (on the
 * node that ran it), then `acknowledged(WAIT's answer)` from within the method's call, before it resolves.
 */
export interface ModuleDurability extends Durability {
  acknowledged(replicas: number): void;
}

export type StoreFactory = (redis: IORedisCluster, options: StoreFactoryOptions) => unknown;

/**
 * Which call an `acknowledged(n)` belongs to: the store's methods run concurrently for several
 * logical clients, and the async context of each call is the one thing that tells them apart
 * without changing the methods' signatures.
 */
const currentReceipt = new AsyncLocalStorage<Receipt>();

function moduleDurability(durability: Durability): ModuleDurability {
  return {
    replicas: durability.replicas,
    timeoutMs: durability.timeoutMs,
    acknowledged(replicas: number) {
      const receipt = currentReceipt.getStore();
      // Outside a call (or a count that is not one) it cannot be pinned on an operation: ignored.
      if (receipt && Number.isSafeInteger(replicas) && replicas >= 0) receipt.acknowledgedReplicas = replicas;
    },
  };
}

/** Import a module:PATH implementation and find its factory (named createStore, else default). */
export async function loadStoreFactory(file: string): Promise<StoreFactory> {
  await checkModuleSyntax(file);
  const factory = storeFactoryOf(await importImplementation(file));
  if (typeof factory !== 'function') throw new ImplSpecError(`--impl module:${file} exports neither createStore nor a default function`);
  return factory as StoreFactory;
}

/** A module's store as a Subject: the harness hands it ready Redis keys and the model's arguments. */
export async function moduleSubject(factory: StoreFactory, file: string, pattern: PatternName, redis: IORedisCluster, namespace: string, durability?: Durability): Promise<Subject> {
  const options: StoreFactoryOptions = { pattern, namespace, ...(durability ? { durability: moduleDurability(durability) } : {}) };
  const store = (await factory(redis, options)) as Record<string, unknown> | undefined;
  const operations = operationsOf(pattern);
  const missing = methodsOf(pattern).filter((m) => typeof store?.[m] !== 'function');
  if (missing.length) throw new ImplSpecError(`--impl module:${file}: the store lacks ${missing.join(', ')} (a ${pattern} store needs ${methodsOf(pattern).join(', ')})`);
  const methods = store as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    name: `module:${file}`,
    redisKey: (key) => redisKeyFor(pattern, namespace, key),
    async invoke(key, input, receipt) {
      const op = (input as { op: string }).op;
      const operation = Object.hasOwn(operations, op) ? operations[op] : undefined;
      if (!operation) throw new TypeError(`module subject: no ${pattern} method for op ${op}`);
      // The method takes the model input's arguments in the order the pattern declares them.
      const args = Object.keys(operation.args).map((name) => (input as Record<string, unknown>)[name]);
      const call = () => methods[operation.method](redisKeyFor(pattern, namespace, key), ...args);
      return receipt ? currentReceipt.run(receipt, call) : call();
    },
    async close() {
      if (typeof store?.close === 'function') await (store.close as () => Promise<void>)();
    },
  };
}
