import { AsyncLocalStorage } from 'node:async_hooks';
import type { Cluster as IORedisCluster, Redis } from 'ioredis';
import { linkDrops, masterLinkDrops } from './link-drops.ts';
import {
  CapabilitiesError,
  exactCapabilities,
  parseCapabilities,
  type Capabilities,
} from '../patterns/capabilities.ts';
import type { Durability } from '../plan/durability.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { DeclaredAnswers, givesHandles, HandleTable } from './declared-answers.ts';
import { ImplSpecError } from './impl-spec.ts';
import { KeyMappingError, parseKeyMapping, type KeyMapping } from '../patterns/key-mapping.ts';
import { checkModuleSyntax } from './module-syntax.ts';
import { ClientClockCell, MODULE_CLOCK_REACH, setClientOffset, underClientClock } from './client-clock.ts';
import { importImplementation, storeFactoryOf } from './module-import.ts';
import type { Receipt, Subject } from '../subject/types.ts';

/** The methods a module's store must have: one per supported operation of the pattern, in its order. */
const methodsOf = (pattern: AnyPattern, caps: Capabilities): string[] =>
  Object.keys(caps.operations).map((op) => pattern.operations[op].method);

/** `createStore`'s options; `durability` only with `--durability wait:N:T` (docs/module-contract.md). */
export interface StoreFactoryOptions {
  /** The pattern's name. */
  readonly pattern: string;
  readonly namespace: string;
  readonly durability?: ModuleDurability;
  /**
   * Only on `--topology masters`: one ready standalone client per independent master, in node order,
   * as a Redlock user holds them (docs/module-contract.md). The first argument is then `masters[0]`.
   */
  readonly masters?: readonly Redis[];
  /**
   * Only on `--topology sentinel`: where the Sentinels are and the name they watch the primary by,
   * with the natMap from the addresses they announce to the ones a client dials, so a store may build
   * its own client (ioredis `{ sentinels, name, natMap }`). The first argument is then a ready
   * standalone client that found the primary through them (docs/module-contract.md).
   */
  readonly sentinel?: SentinelAccess;
}

/** The Sentinels of a `--topology sentinel` deployment, as a client is given them. */
export interface SentinelAccess {
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  readonly name: string;
  readonly natMap: Readonly<Record<string, { readonly host: string; readonly port: number }>>;
}

/**
 * What a module is told with `--durability`: WAIT `replicas` `timeoutMs` after each write (on the
 * node that ran it), then `acknowledged(WAIT's answer)` from within the method's call, before it resolves.
 */
export interface ModuleDurability extends Durability {
  acknowledged(replicas: number): void;
}

/**
 * `redis`: the cluster client. Under Sentinel it is a standalone client that found the primary through
 * the Sentinels (`options.sentinel` says where they are). On independent masters it is the first master's standalone client
 * (`options.masters` holds them all); the type stays the cluster's so the stores typed against the
 * contract keep compiling, and a store that reads only `redis` runs as one instance on that master.
 */
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

/** A module:PATH implementation, imported: its factory and what it declares besides. */
export interface LoadedModule {
  readonly factory: StoreFactory;
  /** `export const capabilities = { <pattern>: { <op>: '<level>' | { level, handle } } }`; absent: every operation, exactly. */
  readonly capabilities?: unknown;
  /** `export const keys = { prefix } | (key, pattern) => key | keys`: where its state really lives. */
  readonly keys?: unknown;
}

/** What a module declares for one pattern, checked. */
export interface ModuleDeclarations {
  readonly capabilities: Capabilities;
  readonly keys?: KeyMapping;
}

/** A named export of a module, looked for where storeFactoryOf looks (a CommonJS module's arrive as `default`). */
function exported(mod: Record<string, unknown>, name: string): unknown {
  const inner = (mod.default ?? {}) as Record<string, unknown>;
  return mod[name] ?? (typeof inner === 'object' || typeof inner === 'function' ? inner[name] : undefined);
}

/** Import a module:PATH implementation: its factory (named createStore, else default) and its declarations. */
export async function loadModule(file: string): Promise<LoadedModule> {
  await checkModuleSyntax(file);
  const mod = await importImplementation(file);
  const factory = storeFactoryOf(mod);
  if (typeof factory !== 'function')
    throw new ImplSpecError(`--impl module:${file} exports neither createStore nor a default function`);
  return { factory: factory as StoreFactory, capabilities: exported(mod, 'capabilities'), keys: exported(mod, 'keys') };
}

/** Import a module:PATH implementation and find its factory (named createStore, else default). */
export async function loadStoreFactory(file: string): Promise<StoreFactory> {
  return (await loadModule(file)).factory;
}

/** A module's declarations for the pattern, checked; a mistake in them is a usage error naming the export. */
export function moduleDeclarations(loaded: LoadedModule, file: string, pattern: AnyPattern): ModuleDeclarations {
  const where = `--impl module:${file}`;
  const { name } = pattern;
  try {
    let capabilities = exactCapabilities(pattern);
    if (loaded.capabilities !== undefined) {
      const byPattern = loaded.capabilities as Record<string, unknown> | null;
      if (typeof byPattern !== 'object' || byPattern === null || !Object.hasOwn(byPattern, name)) {
        const named =
          typeof byPattern === 'object' && byPattern !== null ? Object.keys(byPattern).join(', ') || 'none' : 'none';
        throw new CapabilitiesError(
          `export capabilities declares no ${name} capabilities (it names: ${named}); keyed by pattern: { ${name}: { <operation>: '<level>' } }`,
        );
      }
      capabilities = parseCapabilities(pattern, byPattern[name], `capabilities.${name}`);
    }
    const keys = loaded.keys === undefined ? undefined : parseKeyMapping(loaded.keys, 'keys', name);
    if (keys?.learn)
      throw new KeyMappingError(
        'keys: { computed: true } is for process programs, which are asked; a module exports a function of the key instead',
      );
    // A mapping function that breaks the rules should say so now, not in the middle of a run's probes.
    keys?.map(pattern.redisKey('chaoslua', 'declaration-check'));
    return { capabilities, ...(keys ? { keys } : {}) };
  } catch (error) {
    if (error instanceof CapabilitiesError || error instanceof KeyMappingError)
      throw new ImplSpecError(`${where}: ${error.message}`);
    throw error;
  }
}

/**
 * A module's store as a Subject: the harness hands it ready Redis keys and the model's arguments
 * (and, when it declared holder handles, the holder's handle as one more, last argument). `handles`:
 * the table every logical client of the implementation shares (declared-answers.ts says why).
 */
export async function moduleSubject(
  loaded: LoadedModule | StoreFactory,
  file: string,
  pattern: AnyPattern,
  redis: IORedisCluster | readonly Redis[],
  namespace: string,
  handles: HandleTable = new HandleTable(),
  durability?: Durability,
  sentinel?: SentinelAccess,
): Promise<Subject> {
  const module: LoadedModule = typeof loaded === 'function' ? { factory: loaded } : loaded;
  const declared = moduleDeclarations(module, file, pattern);
  // Independent masters arrive as a list: the store gets the first as its client and all of them as options.masters.
  const masters = Array.isArray(redis) ? (redis as readonly Redis[]) : undefined;
  const first: IORedisCluster | Redis = masters ? masters[0] : (redis as IORedisCluster);
  const options: StoreFactoryOptions = {
    pattern: pattern.name,
    namespace,
    ...(durability ? { durability: moduleDurability(durability) } : {}),
    ...(masters ? { masters } : {}),
    ...(sentinel ? { sentinel } : {}),
  };
  // The client's clock cell is entered around createStore too: what it starts (a refresh timer) reads the client's clock.
  const clock = new ClientClockCell();
  const store = (await underClientClock(clock, () => module.factory(first as IORedisCluster, options))) as
    | Record<string, unknown>
    | undefined;
  const { operations } = pattern;
  const methods = methodsOf(pattern, declared.capabilities);
  const missing = methods.filter((m) => typeof store?.[m] !== 'function');
  if (missing.length)
    throw new ImplSpecError(
      `--impl module:${file}: the store lacks ${missing.join(', ')} (a ${pattern.name} store ${declared.capabilities.declared ? 'declaring these capabilities ' : ''}needs ${methods.join(', ')})`,
    );
  const callable = store as Record<string, (...args: unknown[]) => Promise<unknown>>;
  // Closed links matter only to a holder's handle (declared-answers.ts): watched only then.
  const answers = new DeclaredAnswers(
    pattern,
    declared.capabilities,
    handles,
    givesHandles(declared.capabilities)
      ? masters
        ? masterLinkDrops(masters)
        : first.isCluster === false
          ? masterLinkDrops([first as Redis])
          : linkDrops(first as IORedisCluster)
      : undefined,
  );
  const handed = (key: string) => pattern.redisKey(namespace, key);
  const mapping = declared.keys;
  return {
    name: `module:${file}`,
    capabilities: declared.capabilities,
    redisKey: (key) => (mapping ? mapping.map(handed(key))[0] : handed(key)),
    ...(mapping ? { storedKeys: (key: string) => mapping.map(handed(key)), keyMapping: mapping.description } : {}),
    async invoke(key, input, receipt) {
      const fields = input as Record<string, unknown>;
      const op = fields.op as string;
      const operation = Object.hasOwn(declared.capabilities.operations, op) ? operations[op] : undefined;
      if (!operation) throw new TypeError(`module subject: no supported ${pattern.name} method for op ${op}`);
      const redisKey = handed(key);
      // The method takes the model input's arguments in the order the pattern declares them.
      const args = Object.keys(operation.args).map((name) => fields[name]);
      const call = () =>
        answers.call(
          redisKey,
          fields,
          (handle) => callable[operation.method](redisKey, ...args, ...(answers.passesHandle() ? [handle] : [])),
          receipt,
        );
      return underClientClock(clock, () => (receipt ? currentReceipt.run(receipt, call) : call()));
    },
    clientClock: { reach: MODULE_CLOCK_REACH, set: (offsetMs) => setClientOffset(clock, offsetMs) },
    async close() {
      setClientOffset(clock, 0);
      if (typeof store?.close === 'function') await (store.close as () => Promise<void>)();
    },
  };
}
