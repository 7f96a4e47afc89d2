import type { Cluster as IORedisCluster, Redis } from 'ioredis';
import type { Cluster } from '../../cluster/types.ts';
import { HARNESS_REDIS_OPTIONS, openReferenceSubject, type ReferenceSubject } from '../../impl/reference.ts';
import { LUA_CLOCK_REACH } from '../../impl/client-clock.ts';
import type { AnyPattern } from '../../patterns/types.ts';
import type { OpenedImpl } from '../types.ts';

/**
 * The lua: door on a primary under Sentinel: each logical client its own ioredis client that finds
 * the primary through the Sentinels (`{ sentinels, name }`), and the pattern's reference client over
 * it. The reference clients are written against a Cluster client; their script runner treats a client
 * that is not one (ioredis `isCluster` false) as its one master (src/scripts/cluster-nodes.ts), so the
 * same client and scripts run here unchanged.
 */
export async function openOnSentinel(
  pattern: AnyPattern,
  scriptsDir: string,
  label: string,
  cluster: Cluster,
  clients: number,
): Promise<OpenedImpl> {
  if (!cluster.sentinelClient) throw new RangeError(`${cluster} has no Sentinels`);
  const connections: Redis[] = [];
  try {
    const subjects: ReferenceSubject<unknown, unknown>[] = [];
    for (let c = 0; c < clients; c++) {
      const redis = cluster.sentinelClient(HARNESS_REDIS_OPTIONS.redisOptions);
      connections.push(redis);
      await redis.ping();
      subjects.push(await openReferenceSubject(pattern, redis as unknown as IORedisCluster, { scriptsDir }));
    }
    return {
      impl: label,
      subjects,
      findings: () => [],
      clientClockReach: LUA_CLOCK_REACH,
      metricsTexts: () => Promise.all(subjects.map((s, i) => s.metricsText(i === 0))),
      close: async () => {
        for (const redis of connections) redis.disconnect();
      },
    };
  } catch (error) {
    for (const redis of connections) redis.disconnect();
    throw error;
  }
}
