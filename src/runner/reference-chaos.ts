import type { Cluster as IORedisCluster } from 'ioredis';
import type { CheckOptions } from '../checker/types.ts';
import type { LocalCluster } from '../cluster/local.ts';
import type { FaultName, PatternName } from '../generator/index.ts';
import { models } from '../model/index.ts';
import { createReferenceSubject, HARNESS_REDIS_OPTIONS } from '../subject/reference.ts';
import { chaos, type ChaosOutcome } from './chaos.ts';

export interface ReferenceChaosRun {
  readonly pattern: PatternName;
  /** A scripts directory for the reference client; default the project's lua/<pattern>. */
  readonly scriptsDir?: string;
  readonly runs: number;
  readonly seed: number;
  /** Default: every fault. */
  readonly faults?: readonly FaultName[];
  readonly shrinkRuns?: number;
  readonly timeLimitMs?: number;
  readonly check?: CheckOptions;
}

/**
 * The chaos property over eight reference clients on an already started local cluster: what the
 * zero-false-alarms suite and the soak benchmark run (certify's job adds reports around the same).
 */
export async function referenceChaos(cluster: LocalCluster, run: ReferenceChaosRun): Promise<ChaosOutcome> {
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
        check: run.check,
        opTimeoutMs: 10_000,
        nodeTimeoutMs: cluster.options.nodeTimeoutMs,
        schedule: { pattern: run.pattern, faults: run.faults, nodeTimeoutMs: cluster.options.nodeTimeoutMs },
      },
    );
  } finally {
    for (const redis of connections) redis.disconnect();
  }
}

/** What a failing outcome says, one violation or note per line. */
export function describeFailure(outcome: ChaosOutcome): string {
  const f = outcome.failure;
  if (!f) return 'no failure';
  return [`verdict ${f.result.verdict}`, ...f.result.violations.map((v) => `${v.invariant}: ${v.message}`), ...f.result.keys.filter((k) => k.note).map((k) => k.note!)].join('\n');
}
