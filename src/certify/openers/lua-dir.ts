import { quiet } from '../../cluster/quiet.ts';
import path from 'node:path';
import type { Cluster as IORedisCluster } from 'ioredis';
import { projectRoot } from '../../cluster/binaries.ts';
import type { AnyPattern } from '../../patterns/types.ts';
import { HARNESS_REDIS_OPTIONS, openReferenceSubject, type ReferenceSubject } from '../../impl/reference.ts';
import type { ImplOpener } from '../types.ts';
import type { Durability } from '../../plan/durability.ts';
import { LUA_CLOCK_REACH } from '../../impl/client-clock.ts';
import { durableReference } from '../../subject/durable-reference.ts';
import { openOnMasters } from './masters.ts';
import { openOnSentinel } from './sentinel.ts';

/** The project's own scripts of a pattern (lua/<name>). */
/** The reference scripts of a pattern: a built-in's under lua/, a team's where its pattern file says (its `scripts` folder). */
export const referenceScriptsDir = (pattern: AnyPattern | string): string =>
  typeof pattern === 'string'
    ? path.join(projectRoot, 'lua', pattern)
    : (pattern.referenceDir ?? path.join(projectRoot, 'lua', pattern.name));

/** The reference client over a scripts directory: one cluster connection per logical client (so WAIT, with `durability`, measures that client's writes). */
export function luaDirOpener(
  pattern: AnyPattern,
  scriptsDir: string,
  label: string,
  durability?: Durability,
): ImplOpener {
  return async (cluster, clients) => {
    if (cluster.topologyKind === 'masters') return openOnMasters(pattern, scriptsDir, label, cluster, clients);
    if (cluster.topologyKind === 'sentinel') return openOnSentinel(pattern, scriptsDir, label, cluster, clients);
    const connections: IORedisCluster[] = [];
    try {
      const subjects: ReferenceSubject<unknown, unknown>[] = [];
      for (let c = 0; c < clients; c++) {
        const redis = quiet(cluster.connect(HARNESS_REDIS_OPTIONS));
        connections.push(redis);
        const subject: ReferenceSubject<unknown, unknown> = await openReferenceSubject(pattern, redis, { scriptsDir });
        subjects.push(durability ? durableReference(subject, redis, durability) : subject);
      }
      return {
        impl: label,
        subjects,
        findings: () => [],
        clientClockReach: LUA_CLOCK_REACH,
        metricsTexts: () => metricsTexts(subjects),
        close: async () => {
          for (const redis of connections) redis.disconnect();
        },
      };
    } catch (error) {
      for (const redis of connections) redis.disconnect();
      throw error;
    }
  };
}

/** Each reference client's Prometheus text; Redis memory is refreshed once, through the first store. */
async function metricsTexts(subjects: readonly ReferenceSubject<unknown, unknown>[]): Promise<string[]> {
  const texts: string[] = [];
  for (const [i, s] of subjects.entries()) texts.push(await s.metricsText(i === 0));
  return texts;
}
