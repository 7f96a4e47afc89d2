import type { Cluster as IORedisCluster, ClusterOptions } from 'ioredis';
import type { LocalCluster } from '../cluster/local.ts';
import { IDEMPOTENCY_SCRIPTS } from '../patterns/idempotency/calls.ts';
import { IdempotencyStore, type IdempotencyStoreOptions } from '../patterns/idempotency/client.ts';
import { IdempotencyMetrics } from '../patterns/idempotency/metrics.ts';
import { projectScriptsDir } from '../scripts/paths.ts';
import { loadScriptDir, scriptFromBody } from '../scripts/source.ts';
import { EvalshaRunner, type ScriptObserver, type ScriptRunner } from '../scripts/runner.ts';
import type { ScriptSource } from '../scripts/source.ts';
import { readFileSync } from 'node:fs';

/** Client options of scenario connections: RESP2 defaults, and a bound on a stuck command that no step waits longer than. */
export const SCENARIO_REDIS_OPTIONS: ClusterOptions = { redisOptions: { commandTimeout: 15_000 } };

export type ScriptOverrides = Partial<Record<(typeof IDEMPOTENCY_SCRIPTS)[number], string>>;

/**
 * The reference IdempotencyStore over the project's scripts, with some replaced by files of a
 * broken variant: a scenario keeps only the script it breaks, never a copy of the other three.
 */
export function openStore(redis: IORedisCluster, overrides: ScriptOverrides = {}, options: StoreOptions = {}): Promise<IdempotencyStore> {
  return openStoreWith(redis, (r, sources, observer) => new EvalshaRunner(r, sources, observer), overrides, options);
}

type StoreOptions = Omit<IdempotencyStoreOptions, 'scriptsDir' | 'mode'>;

/** How a client variant calls its scripts (the reference EvalshaRunner, or a broken loader). */
export type RunnerFactory = (redis: IORedisCluster, sources: Iterable<ScriptSource>, observer: ScriptObserver) => ScriptRunner;

/** The reference store over a script loader of the scenario's choosing; scripts are loaded on every master before it returns. */
export async function openStoreWith(redis: IORedisCluster, factory: RunnerFactory, overrides: ScriptOverrides = {}, options: StoreOptions = {}): Promise<IdempotencyStore> {
  const sources = loadScriptDir(projectScriptsDir('idempotency'), IDEMPOTENCY_SCRIPTS);
  for (const [name, path] of Object.entries(overrides)) sources.set(name, scriptFromBody(name, readFileSync(path), path));
  const metrics = new IdempotencyMetrics();
  const runner = factory(redis, sources.values(), metrics.observer());
  await runner.prepare();
  return IdempotencyStore.withRunner(redis, runner, metrics, options);
}

/** A cluster connection for one step, always closed afterwards. */
export async function withConnection<T>(cluster: LocalCluster, use: (redis: IORedisCluster) => Promise<T>, options: ClusterOptions = SCENARIO_REDIS_OPTIONS): Promise<T> {
  const redis = cluster.connect(options);
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Sum of the samples of one metric in a Prometheus text exposition, as an SRE's query reads it:
 * every label set, or only those carrying all of `labels`.
 */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => (match[2] ?? '').includes(`${k}="${v}"`))) sum += Number(match[3]);
  }
  return sum;
}

/** The upper bound of the histogram bucket holding quantile q (Prometheus's histogram_quantile, without interpolation). */
export function histogramBucketQuantile(text: string, name: string, q: number): number | null {
  const buckets: [number, number][] = [];
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}_bucket\\{(?:[^}]*,)?le="([^"]+)"[^}]*\\}\\s+(\\S+)`).exec(line);
    if (match) buckets.push([match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2])]);
  }
  const total = buckets.find(([le]) => le === Infinity)?.[1] ?? 0;
  if (total === 0) return null;
  return buckets.sort((a, b) => a[0] - b[0]).find(([, count]) => count >= q * total)?.[0] ?? null;
}
