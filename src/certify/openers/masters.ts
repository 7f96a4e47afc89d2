import type { Redis } from 'ioredis';
import type { Cluster } from '../../cluster/types.ts';
import { HARNESS_REDIS_OPTIONS, type ReferenceSubject } from '../../impl/reference.ts';
import { LUA_CLOCK_REACH } from '../../impl/client-clock.ts';
import type { AnyPattern } from '../../patterns/types.ts';
import type { OpenedImpl } from '../types.ts';

/**
 * The lua: door on independent masters: each logical client its own connection to every master and
 * the pattern's client across them (the lock's Redlock), as Redlock's users hold one client per
 * server. The job options refuse a pattern without one before any master starts.
 */
export async function openOnMasters(
  pattern: AnyPattern,
  scriptsDir: string,
  label: string,
  cluster: Cluster,
  clients: number,
): Promise<OpenedImpl> {
  if (!pattern.openOnMasters || !cluster.masterClients)
    throw new RangeError(`${pattern.name} has no client for independent masters`);
  const connections: Redis[] = [];
  try {
    const subjects: ReferenceSubject<unknown, unknown>[] = [];
    for (let c = 0; c < clients; c++) {
      const masters = cluster.masterClients(HARNESS_REDIS_OPTIONS.redisOptions);
      connections.push(...masters);
      subjects.push(
        await pattern.openOnMasters(masters, {
          scriptsDir,
          mode: 'evalsha',
          namespace: 'chaoslua',
          quitOnClose: false,
        }),
      );
    }
    return {
      impl: label,
      subjects,
      findings: () => [],
      clientClockReach: LUA_CLOCK_REACH,
      metricsTexts: () => Promise.all(subjects.map((s) => s.metricsText(false))),
      close: async () => {
        for (const redis of connections) redis.disconnect();
      },
    };
  } catch (error) {
    for (const redis of connections) redis.disconnect();
    throw error;
  }
}
