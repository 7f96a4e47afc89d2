/**
 * The reference client of a pattern a team declared: each operation one script call, the key as
 * KEYS[1] and the operation's arguments as ARGV in the order the spec lists them, the reply handed
 * to the model unchanged. What a `lua:DIR` implementation of a custom pattern runs under.
 */
import type { Cluster as IORedisCluster } from 'ioredis';
import { ScriptMetrics } from '../../scripts/metrics.ts';
import { openScriptRunner } from '../../scripts/open-runner.ts';
import type { ScriptMode, ScriptRunner } from '../../scripts/runner.ts';
import { ReferenceAdapter } from '../../subject/adapter.ts';

/** By operation: its script and its arguments' names in ARGV order. */
export type ScriptCalls = Readonly<Record<string, { readonly script: string; readonly args: readonly string[] }>>;

export interface ScriptedOpenOptions {
  readonly pattern: string;
  readonly calls: ScriptCalls;
  readonly scriptsDir: string;
  readonly mode: ScriptMode;
  readonly keyOf: (logicalKey: string) => string;
  readonly quitOnClose: boolean;
}

/** FCALL names a function `<prefix>_<script>`: the pattern's name, as a Lua identifier. */
export const functionPrefix = (pattern: string): string => pattern.replace(/-/g, '_');

export class ScriptedSubject extends ReferenceAdapter<{ readonly op: string }, unknown> {
  private constructor(
    private readonly runner: ScriptRunner,
    private readonly metrics: ScriptMetrics,
    private readonly calls: ScriptCalls,
    redis: IORedisCluster,
    options: ScriptedOpenOptions,
  ) {
    super(
      `lua:${options.scriptsDir} (${options.pattern} scripts, ${options.mode})`,
      redis,
      options.keyOf,
      options.quitOnClose,
    );
  }

  static async open(redis: IORedisCluster, options: ScriptedOpenOptions): Promise<ScriptedSubject> {
    const metrics = new ScriptMetrics(functionPrefix(options.pattern));
    const names = [...new Set(Object.values(options.calls).map((c) => c.script))];
    const spec = {
      dir: options.scriptsDir,
      names,
      mode: options.mode,
      functionPrefix: functionPrefix(options.pattern),
    };
    const runner = await openScriptRunner(redis, spec, metrics.observer());
    return new ScriptedSubject(runner, metrics, options.calls, redis, options);
  }

  protected call(key: string, input: { readonly op: string }): Promise<unknown> {
    const call = this.calls[input.op];
    if (!call) throw new TypeError(`${this.name}: no script for operation ${JSON.stringify(input.op)}`);
    const fields = input as unknown as Readonly<Record<string, unknown>>;
    return this.runner.call(
      call.script,
      key,
      call.args.map((name) => fields[name] as string | number),
    );
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }
}
