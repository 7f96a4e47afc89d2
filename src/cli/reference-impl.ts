import path from 'node:path';
import type { Cluster as IORedisCluster } from 'ioredis';
import { projectRoot } from '../cluster/binaries.ts';
import type { PatternName } from '../generator/schedule.ts';
import { createReferenceSubject } from '../subject/reference.ts';
import type { ImplOpener } from './job.ts';

/** Client options every harness connection uses: RESP2, and a bound on a stuck command. */
export const HARNESS_REDIS_OPTIONS = { redisOptions: { commandTimeout: 2_000 } } as const;

export const referenceScriptsDir = (pattern: PatternName) => path.join(projectRoot, 'lua', pattern);

/** The reference client over a scripts directory: one cluster connection per logical client. */
export function luaDirOpener(pattern: PatternName, scriptsDir: string, label: string): ImplOpener {
  return async (cluster, clients) => {
    const connections: IORedisCluster[] = [];
    try {
      const subjects = [];
      for (let c = 0; c < clients; c++) {
        const redis = cluster.connect(HARNESS_REDIS_OPTIONS);
        connections.push(redis);
        subjects.push(await createReferenceSubject(pattern, redis, { scriptsDir }));
      }
      return {
        impl: label,
        subjects,
        findings: () => [],
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
