import { NODE_TIMEOUT_MS } from '../plan/node-timeout.ts';
/** What a caller may set on a LocalCluster; validated once, here (fast-check's Constraints pattern). */
export interface LocalClusterConstraints {
  /** Masters (shards). Default 3. */
  masters?: number;
  /** Replicas per master. Default 1. */
  replicasPerMaster?: number;
  /** cluster-node-timeout in ms: how long a node may be silent before failover. Default NODE_TIMEOUT_MS.default. */
  nodeTimeoutMs?: number;
  /** How long start() and heal() wait for ready. Default 30 s. */
  readyTimeoutMs?: number;
  /** Seed for Toxiproxy's toxicity randomness. Default 1. */
  seed?: number;
  /** maxmemory for every node, e.g. '64mb'. Default: none. */
  maxmemory?: string;
  /** maxmemory-policy, e.g. 'allkeys-lru'. Default: Redis's (noeviction). */
  maxmemoryPolicy?: string;
  /** lua-time-limit (busy-reply-threshold) in ms. Default: Redis's 5000. */
  luaTimeLimitMs?: number;
  /** The redis-server (or valkey-server) binary, as `--server` resolved it (./servers.ts). Default: redisServerBinary(). */
  redisServer?: string;
}

export type LocalClusterOptions = Required<
  Omit<LocalClusterConstraints, 'maxmemory' | 'maxmemoryPolicy' | 'luaTimeLimitMs' | 'redisServer'>
> &
  Pick<LocalClusterConstraints, 'maxmemory' | 'maxmemoryPolicy' | 'luaTimeLimitMs' | 'redisServer'>;

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`LocalCluster.start: ${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
  }
  return value;
}

function redisServer(value: unknown): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value === ''))
    throw new RangeError(`LocalCluster.start: redisServer must be a path to a redis-server, got ${String(value)}`);
  return value;
}

export function localClusterOptions(c: LocalClusterConstraints = {}): LocalClusterOptions {
  const known = new Set([
    'masters',
    'replicasPerMaster',
    'nodeTimeoutMs',
    'readyTimeoutMs',
    'seed',
    'maxmemory',
    'maxmemoryPolicy',
    'luaTimeLimitMs',
    'redisServer',
  ]);
  for (const key of Object.keys(c)) {
    if (!known.has(key)) throw new RangeError(`LocalCluster.start: unknown option '${key}'`);
  }
  return {
    masters: integer('masters', c.masters ?? 3, 1, 16),
    replicasPerMaster: integer('replicasPerMaster', c.replicasPerMaster ?? 1, 0, 4),
    nodeTimeoutMs: integer(
      'nodeTimeoutMs',
      c.nodeTimeoutMs ?? NODE_TIMEOUT_MS.default,
      NODE_TIMEOUT_MS.min,
      NODE_TIMEOUT_MS.max,
    ),
    readyTimeoutMs: integer('readyTimeoutMs', c.readyTimeoutMs ?? 30_000, 1_000, 600_000),
    seed: integer('seed', c.seed ?? 1, 0, 2 ** 31 - 1),
    maxmemory: c.maxmemory,
    maxmemoryPolicy: c.maxmemoryPolicy,
    luaTimeLimitMs:
      c.luaTimeLimitMs === undefined ? undefined : integer('luaTimeLimitMs', c.luaTimeLimitMs, 1, 600_000),
    redisServer: redisServer(c.redisServer),
  };
}
