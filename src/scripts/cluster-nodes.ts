import type { Cluster as IORedisCluster, Redis } from 'ioredis';

/** Address of a pooled node connection, "host:port" (what ioredis dials, after natMap). */
export function nodeAddress(node: Redis): string {
  return `${node.options.host}:${node.options.port}`;
}

/** Resolve once the client has its slot table and node pool (commands before that are queued). */
export async function whenReady(redis: IORedisCluster): Promise<void> {
  if (redis.status !== 'ready') await redis.ping();
}

/**
 * A standalone client handed where a Cluster client is expected (a primary found through Sentinel,
 * src/certify/openers/sentinel.ts): ioredis says which it is (`isCluster`), and then it is its one master.
 */
const standalone = (redis: IORedisCluster): Redis | undefined =>
  redis.isCluster === false ? (redis as unknown as Redis) : undefined;

export async function masters(redis: IORedisCluster): Promise<Redis[]> {
  await whenReady(redis);
  const one = standalone(redis);
  return one ? [one] : redis.nodes('master');
}

/**
 * The pooled connection to the master the client believes serves `slot`, or undefined.
 * After a MOVED, ioredis stores the *announced* address in its slot table until its next refresh,
 * so the announced address is looked up through natMap as well.
 */
export function masterForSlot(redis: IORedisCluster, slot: number): Redis | undefined {
  const one = standalone(redis);
  if (one) return one;
  const key = redis.slots[slot]?.[0];
  if (key === undefined) return undefined;
  const candidates = new Set([key]);
  const natMap = redis.options.natMap;
  const mapped = typeof natMap === 'function' ? natMap(key) : natMap?.[key];
  if (mapped) candidates.add(`${mapped.host}:${mapped.port}`);
  return redis.nodes('all').find((n) => candidates.has(nodeAddress(n)));
}
