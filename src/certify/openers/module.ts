import type { Cluster as IORedisCluster } from 'ioredis';
import type { PatternName } from '../../generator/schedule.ts';
import { loadStoreFactory, moduleSubject } from '../../subject/module-subject.ts';
import type { Subject } from '../../subject/types.ts';
import type { ImplOpener } from '../types.ts';
import { HARNESS_REDIS_OPTIONS } from '../../subject/reference.ts';

/** module:PATH — one store per logical client, each on its own cluster connection. */
export function moduleOpener(pattern: PatternName, file: string): ImplOpener {
  return async (cluster, clients) => {
    const factory = await loadStoreFactory(file);
    const connections: IORedisCluster[] = [];
    const subjects: Subject[] = [];
    const closeAll = async () => {
      for (const s of subjects) await s.close().catch(() => undefined);
      for (const r of connections) r.disconnect();
    };
    try {
      for (let c = 0; c < clients; c++) {
        const redis = cluster.connect(HARNESS_REDIS_OPTIONS);
        connections.push(redis);
        subjects.push(await moduleSubject(factory, file, pattern, redis, 'chaoslua'));
      }
    } catch (error) {
      await closeAll();
      throw error;
    }
    return { impl: `module:${file}`, subjects, findings: () => [], close: closeAll };
  };
}
