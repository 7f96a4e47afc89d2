import type { Cluster as IORedisCluster, ClusterOptions } from 'ioredis';
import type { LocalCluster } from '../cluster/local.ts';
import { projectScriptsDir } from '../scripts/paths.ts';
import { loadScriptDir, scriptFromBody } from '../scripts/source.ts';
import { EvalshaRunner, type ScriptObserver, type ScriptRunner } from '../scripts/runner.ts';
import type { ScriptSource } from '../scripts/source.ts';
import { readFileSync } from 'node:fs';

/** Client options of scenario connections: RESP2 defaults, and a bound on a stuck command that no step waits longer than. */
export const SCENARIO_REDIS_OPTIONS: ClusterOptions = { redisOptions: { commandTimeout: 15_000 } };

/**
 * What a pattern offers the scenarios (src/patterns/<name>/stores.ts): the scripts of lua/<pattern>,
 * and its reference client over a script runner the scenario chooses. `observer` goes to the
 * runner; `build` makes the client once the runner has loaded the scripts.
 */
export interface StoreSource<Store, Options> {
  readonly pattern: string;
  readonly scripts: readonly string[];
  client(options: Options): {
    readonly observer: ScriptObserver;
    build(redis: IORedisCluster, runner: ScriptRunner): Store;
  };
}

/** Scripts of the pattern replaced by files of a broken variant, by script name. */
export type ScriptOverrides = Readonly<Record<string, string>>;

/**
 * The pattern's reference client over the project's scripts, with some replaced by files of a
 * broken variant: a scenario keeps only the script it breaks, never a copy of the others.
 */
export function openStore<Store, Options>(
  source: StoreSource<Store, Options>,
  redis: IORedisCluster,
  overrides: ScriptOverrides,
  options: Options,
): Promise<Store> {
  return openStoreWith(
    source,
    redis,
    (r, sources, observer) => new EvalshaRunner(r, sources, observer),
    overrides,
    options,
  );
}

/** How a client variant calls its scripts (the reference EvalshaRunner, or a broken loader). */
export type RunnerFactory = (
  redis: IORedisCluster,
  sources: Iterable<ScriptSource>,
  observer: ScriptObserver,
) => ScriptRunner;

/** The reference client over a script loader of the scenario's choosing; scripts are loaded on every master before it returns. */
export async function openStoreWith<Store, Options>(
  source: StoreSource<Store, Options>,
  redis: IORedisCluster,
  factory: RunnerFactory,
  overrides: ScriptOverrides,
  options: Options,
): Promise<Store> {
  const unknown = Object.keys(overrides).filter((name) => !source.scripts.includes(name));
  if (unknown.length)
    throw new RangeError(
      `openStore: ${source.pattern} has no script ${unknown.join(', ')} (its scripts: ${source.scripts.join(', ')})`,
    );
  const sources = loadScriptDir(projectScriptsDir(source.pattern), source.scripts);
  for (const [name, path] of Object.entries(overrides))
    sources.set(name, scriptFromBody(name, readFileSync(path), path));
  const client = source.client(options);
  const runner = factory(redis, sources.values(), client.observer);
  await runner.prepare();
  return client.build(redis, runner);
}

/** A cluster connection for one step, always closed afterwards. */
export async function withConnection<T>(
  cluster: LocalCluster,
  use: (redis: IORedisCluster) => Promise<T>,
  options: ClusterOptions = SCENARIO_REDIS_OPTIONS,
): Promise<T> {
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
