import type { Cluster as IORedisCluster } from 'ioredis';
import type { LocalCluster } from '../../src/cluster/local.ts';
import type { FaultName, PatternName } from '../../src/generator/index.ts';
import { models } from '../../src/model/index.ts';
import { chaos, type ChaosOutcome } from '../../src/runner/chaos.ts';
import { createReferenceSubject } from '../../src/subject/reference.ts';
import { HARNESS_REDIS_OPTIONS } from '../../src/cli/reference-impl.ts';

export interface ChaosRun {
  pattern: PatternName;
  scriptsDir?: string;
  runs: number;
  seed: number;
  faults?: readonly FaultName[];
  shrinkRuns?: number;
  timeLimitMs?: number;
}

/** The chaos property over the reference client (or a scripts dir) on an already started cluster. */
export async function chaosOnCluster(cluster: LocalCluster, run: ChaosRun): Promise<ChaosOutcome> {
  const connections: IORedisCluster[] = [];
  try {
    const subjects = [];
    for (let c = 0; c < 8; c++) {
      const redis = cluster.connect(HARNESS_REDIS_OPTIONS);
      connections.push(redis);
      subjects.push(await createReferenceSubject(run.pattern, redis, { scriptsDir: run.scriptsDir }));
    }
    return await chaos(
      { cluster, subjects, model: models[run.pattern] as Parameters<typeof chaos>[0]['model'] },
      {
        runs: run.runs,
        seed: run.seed,
        timeLimitMs: run.timeLimitMs ?? 600_000,
        shrinkRuns: run.shrinkRuns ?? 0,
        opTimeoutMs: 10_000,
        nodeTimeoutMs: cluster.options.nodeTimeoutMs,
        schedule: { pattern: run.pattern, faults: run.faults, nodeTimeoutMs: cluster.options.nodeTimeoutMs },
      },
    );
  } finally {
    for (const redis of connections) redis.disconnect();
  }
}

/** What a failing outcome says, for assertion messages. */
export function failureText(outcome: ChaosOutcome): string {
  const f = outcome.failure;
  if (!f) return 'no failure';
  return [`verdict ${f.result.verdict}`, ...f.result.violations.map((v) => `${v.invariant}: ${v.message}`), ...f.result.keys.filter((k) => k.note).map((k) => k.note!)].join('\n');
}
