import type { Cluster as IORedisCluster } from 'ioredis';
import type { Durability } from '../plan/durability.ts';
import { keySlot } from '../resp/key-slot.ts';
import { masterForSlot } from '../scripts/cluster-nodes.ts';

/**
 * `WAIT replicas timeout` after a write to `redisKey`, on the connection that ran it; the number of
 * replicas that acknowledged (0 when WAIT could not be asked).
 *
 * WAIT has no key, so ioredis's Cluster sends it to a random node, where it measures some other
 * connection's writes (a connection that wrote nothing gets every replica at once). WAIT counts the
 * writes of the connection it is sent on, and ioredis keeps one connection per node, so it goes to
 * the pooled connection of the master the client's slot table names for the key: the node that just
 * ran the write (after a MOVED, ioredis has already updated that entry before retrying there).
 * If that node turned replica meanwhile, WAIT is refused there: then no replica is known to hold
 * the write, and 0 is what the operation reports. The write's own answer stands either way.
 */
export async function waitForReplicas(
  redis: IORedisCluster,
  redisKey: string,
  durability: Durability,
): Promise<number> {
  const node = masterForSlot(redis, keySlot(redisKey));
  if (!node) return 0;
  try {
    const acknowledged = Number(await node.call('WAIT', durability.replicas, durability.timeoutMs));
    return Number.isSafeInteger(acknowledged) && acknowledged >= 0 ? acknowledged : 0;
  } catch {
    return 0;
  }
}
