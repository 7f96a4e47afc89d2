import { parseInfo } from '../resp/info.ts';
import type { Cluster } from './types.ts';

/**
 * What a running server is and can do, asked of one of its nodes, never inferred from its name or
 * `--version`: a build may backport or drop a feature, and Valkey answers a Redis version
 * (`redis_version:7.2.4`) for clients that check one.
 */
export interface ServerFeatures {
  /** FUNCTION LIST answers (Redis 7.0+): FUNCTION LOAD / FCALL can be used. */
  readonly functions: boolean;
  /** A script whose first line is `#!lua flags=no-writes` runs (7.0+); 6.2 compiles the line as Lua and fails. */
  readonly shebangFlags: boolean;
  /** INFO stats counts `evicted_scripts` (Redis 7.4+, Valkey 8.0+): EVAL-loaded scripts can be evicted from the cache. */
  readonly evictsScripts: boolean;
  /** Two TIME calls in one script answer the same instant (7.2+): time is frozen for the script. */
  readonly frozenTime: boolean;
}

export interface ServerInfo {
  /** `server_name` of INFO server (valkey), else redis. */
  readonly name: string;
  /** `valkey_version` on Valkey, else `redis_version`. */
  readonly version: string;
  /** `mem_allocator` of INFO memory, e.g. jemalloc-5.3.0 or libc. */
  readonly allocator: string;
  readonly features: ServerFeatures;
}

/** A node's answer or its error, as the probes read them (a refusal is an answer here). */
type Ask = (...args: (string | number)[]) => Promise<unknown>;

/** Enough Lua work between two TIME calls that a clock read twice differs (about 1 ms here). */
const TIME_PROBE =
  "local a = redis.call('TIME') for i = 1, 200000 do end local b = redis.call('TIME') return a[1] == b[1] and a[2] == b[2] and 1 or 0";
const SHEBANG_PROBE = '#!lua flags=no-writes\nreturn 1';

const answers = async (ask: Ask, ...args: (string | number)[]): Promise<unknown> =>
  ask(...args).catch((error: unknown) => error);

/** The probes' reading of INFO server and INFO memory (exported for the unit tests). */
export function serverIdentity(
  infoServer: string,
  infoMemory: string,
): Pick<ServerInfo, 'name' | 'version' | 'allocator'> {
  const server = parseInfo(infoServer);
  const name = server.server_name || 'redis';
  const version = server[`${name}_version`] || server.redis_version;
  if (!version)
    throw new Error(`server probe: INFO server names no version (${JSON.stringify(infoServer.slice(0, 120))})`);
  return { name, version, allocator: parseInfo(infoMemory).mem_allocator || 'unknown' };
}

/** Every probe on one node, through `ask` (a direct connection to it). */
export async function probeNode(ask: Ask): Promise<ServerInfo> {
  const identity = serverIdentity(String(await ask('INFO', 'server')), String(await ask('INFO', 'memory')));
  const functions = !((await answers(ask, 'FUNCTION', 'LIST')) instanceof Error);
  const shebang = await answers(ask, 'EVAL', SHEBANG_PROBE, 0);
  const stats = parseInfo(String(await ask('INFO', 'stats')));
  const frozen = await ask('EVAL', TIME_PROBE, 0);
  return {
    ...identity,
    features: {
      functions,
      shebangFlags: shebang === 1,
      evictsScripts: 'evicted_scripts' in stats,
      frozenTime: frozen === 1,
    },
  };
}

/** The probes on the first node of `cluster` that answers. */
export async function probeServer(cluster: Pick<Cluster, 'nodes' | 'command'>): Promise<ServerInfo> {
  const problems: string[] = [];
  for (const node of cluster.nodes) {
    try {
      return await probeNode((...args) => cluster.command(node.index, ...args));
    } catch (error) {
      problems.push(`${node.name}: ${(error as Error).message}`);
    }
  }
  throw new Error(`server probe: no node answered (${problems.join('; ')})`);
}

/** "Redis 7.0.15 (jemalloc-5.3.0)", "Valkey 8.1.8 (libc)": how a summary line and a report name the server. */
export function serverText(server: Pick<ServerInfo, 'name' | 'version' | 'allocator'>): string {
  return `${server.name.charAt(0).toUpperCase()}${server.name.slice(1)} ${server.version} (${server.allocator})`;
}

/** The features a server has, in words: "Functions, shebang flags, frozen TIME" or "none of ...". */
export function featuresText(features: ServerFeatures): string {
  const names: [keyof ServerFeatures, string][] = [
    ['functions', 'Functions'],
    ['shebangFlags', 'shebang flags'],
    ['evictsScripts', 'script eviction'],
    ['frozenTime', 'frozen TIME'],
  ];
  const has = names.filter(([k]) => features[k]).map(([, n]) => n);
  return has.length ? has.join(', ') : `none of ${names.map(([, n]) => n).join(', ')}`;
}
