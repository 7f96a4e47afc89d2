/**
 * How many times a cluster client's node connections have closed. ioredis resends a command left
 * unanswered when its connection closes (autoResendUnfulfilledCommands, on by default), so a call
 * that spans a close may have run twice with one answer seen: declared-answers.ts uses the count
 * to tell when a handle-giving call may have taken effect unseen.
 */
import type { Cluster as IORedisCluster, Redis } from 'ioredis';

export function linkDrops(redis: IORedisCluster): () => number {
  let drops = 0;
  const watch = (node: Redis) => {
    node.on('close', () => drops++);
  };
  for (const node of redis.nodes('all')) watch(node);
  redis.on('+node', watch);
  return () => drops;
}

/** The same count over independent masters' standalone clients (each resends what its closed link left unanswered). */
export function masterLinkDrops(masters: readonly Redis[]): () => number {
  let drops = 0;
  for (const m of masters) m.on('close', () => drops++);
  return () => drops;
}
