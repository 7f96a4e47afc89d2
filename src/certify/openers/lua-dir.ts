import { quiet } from '../../cluster/quiet.ts';
import path from 'node:path';
import type { Cluster as IORedisCluster } from 'ioredis';
import { projectRoot } from '../../cluster/binaries.ts';
import type { PatternName } from '../../patterns/index.ts';
import { createReferenceSubject, HARNESS_REDIS_OPTIONS, type ReferenceSubject } from '../../subject/reference.ts';
import type { ImplOpener } from '../types.ts';
import type { Durability } from '../../plan/durability.ts';
import { durableReference } from '../../subject/durable-reference.ts';

export const referenceScriptsDir = (pattern: PatternName) => path.join(projectRoot, 'lua', pattern);

/** The reference client over a scripts directory: one cluster connection per logical client (so WAIT, with `durability`, measures that client's writes). */
export function luaDirOpener(pattern: PatternName, scriptsDir: string, label: string, durability?: Durability): ImplOpener {
  return async (cluster, clients) => {
    const connections: IORedisCluster[] = [];
    try {
      const subjects: ReferenceSubject<unknown, unknown>[] = [];
      for (let c = 0; c < clients; c++) {
        const redis = quiet(cluster.connect(HARNESS_REDIS_OPTIONS));
        connections.push(redis);
        const subject: ReferenceSubject<unknown, unknown> = await createReferenceSubject(pattern, redis, { scriptsDir });
        subjects.push(durability ? durableReference(subject, redis, durability) : subject);
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
async function metricsTexts(subjects: readonly ReferenceSubject<unknown, unknown>[]): Promise<string[]> {
  const texts: string[] = [];
  for (const [i, s] of subjects.entries()) texts.push(await s.metricsText(i === 0));
  return texts;
}
