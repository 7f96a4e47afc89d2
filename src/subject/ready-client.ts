import type { Cluster as IORedisCluster } from 'ioredis';
import { EnvironmentError } from '../cluster/errors.ts';
import { waitUntil } from '../cluster/wait.ts';

const SLOTS = 16384;

/** Longest wait for a fresh client to become ready: a cluster that takes longer is not healthy. */
export const CLIENT_READY_TIMEOUT_MS = 10_000;

/**
 * Wait until a freshly made ioredis Cluster is ready for a module's createStore: its slot table
 * covers all 16,384 slots and every master it knows answers PING. "Connected" is not enough: right
 * after construction the slot table is empty and `nodes('master')` returns nothing, and a library
 * that reads either in its constructor (to load scripts on every master, say) fails for a reason that
 * is not its own. A client that never gets there is the environment's failure, not the module's.
 */
export async function waitForClientReady(redis: IORedisCluster, timeoutMs = CLIENT_READY_TIMEOUT_MS): Promise<void> {
  try {
    await waitUntil(
      'the Redis Cluster client ready (all slots mapped, every master answering)',
      () => readinessOf(redis),
      timeoutMs,
    );
  } catch (error) {
    throw new EnvironmentError((error as Error).message);
  }
}

/** `true`, or the first reason the client is not ready yet. */
async function readinessOf(redis: IORedisCluster): Promise<true | string> {
  if (redis.status !== 'ready') return `client status ${redis.status}`;
  for (let slot = 0; slot < SLOTS; slot++) {
    if (!redis.slots[slot]?.length) return `slot ${slot} has no node in the client's slot table`;
  }
  const masters = redis.nodes('master');
  if (masters.length === 0) return 'the client knows no master';
  const answers = await Promise.all(masters.map((m) => m.ping().catch((error: Error) => error.message)));
  const silent = answers.findIndex((a) => a !== 'PONG');
  return silent === -1
    ? true
    : `master ${masters[silent].options.host}:${masters[silent].options.port} answered ${answers[silent]}`;
}
