/**
 * What the idempotency store offers the scenarios (src/scenario/stores.ts): its scripts, and its
 * reference client over a script runner a scenario chooses (the reference loader, or a broken one).
 */
import type { Cluster as IORedisCluster } from 'ioredis';
import type { ScriptRunner } from '../../pattern.ts';
import { IDEMPOTENCY_SCRIPTS } from './calls.ts';
import { IdempotencyStore, type IdempotencyStoreOptions } from './client.ts';
import { IdempotencyMetrics } from './metrics.ts';

export const idempotencyStores = {
  pattern: 'idempotency',
  scripts: IDEMPOTENCY_SCRIPTS,
  client(options: Omit<IdempotencyStoreOptions, 'scriptsDir' | 'mode'>) {
    const metrics = new IdempotencyMetrics();
    return {
      observer: metrics.observer(),
      build: (redis: IORedisCluster, runner: ScriptRunner) =>
        IdempotencyStore.withRunner(redis, runner, metrics, options),
    };
  },
} as const;
