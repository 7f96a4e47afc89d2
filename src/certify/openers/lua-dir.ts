import { quiet } from '../../cluster/quiet.ts';
import path from 'node:path';
import type { Cluster as IORedisCluster } from 'ioredis';
import { projectRoot } from '../../cluster/binaries.ts';
import type { PatternName } from '../../generator/schedule.ts';
import { createReferenceSubject, HARNESS_REDIS_OPTIONS, IdempotencySubject, LockSubject, RateLimitSubject } from '../../subject/reference.ts';
import type { Subject } from '../../subject/types.ts';
import type { ImplOpener } from '../types.ts';

export const referenceScriptsDir = (pattern: PatternName) => path.join(projectRoot, 'lua', pattern);

/** The reference client over a scripts directory: one cluster connection per logical client. */
export function luaDirOpener(pattern: PatternName, scriptsDir: string, label: string): ImplOpener {
  return async (cluster, clients) => {
    const connections: IORedisCluster[] = [];
    try {
      const subjects: Subject[] = [];
      for (let c = 0; c < clients; c++) {
        const redis = quiet(cluster.connect(HARNESS_REDIS_OPTIONS));
        connections.push(redis);
        subjects.push(await createReferenceSubject(pattern, redis, { scriptsDir }));
      }
      return {
        impl: label,
        subjects,
        findings: () => [],
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
async function metricsTexts(subjects: readonly Subject[]): Promise<string[]> {
  const texts: string[] = [];
  for (const [i, s] of subjects.entries()) {
    if (s instanceof IdempotencySubject) {
      if (i === 0) await s.store.refreshMemory();
      texts.push(await s.store.metricsText());
    } else if (s instanceof LockSubject || s instanceof RateLimitSubject) texts.push(await s.client.metricsText());
  }
  return texts;
}
