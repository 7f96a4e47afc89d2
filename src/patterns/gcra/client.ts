import type { Cluster as IORedisCluster } from 'ioredis';
import {
  ScriptMetrics,
  openScriptRunner,
  scriptOptions,
  zeroOrOne,
  type ScriptMode,
  type ScriptRunner,
  positiveInt,
} from '../../pattern.ts';

export const GCRA_SCRIPTS = ['gcra'] as const;

export interface GcraClientOptions {
  /** Directory with gcra.lua. Default: the project's lua/gcra. */
  scriptsDir?: string;
  mode?: ScriptMode;
}

const WHERE = 'GcraClient';

/** A GCRA limiter (go-redis/redis_rate's algorithm): one atomic script call per decision. */
export class GcraClient {
  private constructor(
    readonly runner: ScriptRunner,
    readonly metrics: ScriptMetrics,
  ) {}

  static async open(redis: IORedisCluster, options: GcraClientOptions = {}): Promise<GcraClient> {
    const { mode, dir } = scriptOptions(WHERE, options, ['scriptsDir', 'mode'], 'gcra');
    const metrics = new ScriptMetrics('gcra');
    const runner = await openScriptRunner(
      redis,
      { dir, names: GCRA_SCRIPTS, mode, functionPrefix: 'gcra' },
      metrics.observer(),
    );
    return new GcraClient(runner, metrics);
  }

  /** Arguments pass through unchecked: certification feeds edge values on purpose. */
  hitRaw(key: string, burst: number, rate: number, periodMs: number): Promise<unknown> {
    return this.runner.call('gcra', key, [burst, rate, periodMs]);
  }

  /** true: allowed; false: blocked (nothing changed). */
  async hit(key: string, burst: number, rate: number, periodMs: number): Promise<boolean> {
    const where = `${WHERE}.hit`;
    return zeroOrOne(
      'gcra',
      await this.hitRaw(
        key,
        positiveInt(where, 'burst', burst),
        positiveInt(where, 'rate', rate),
        positiveInt(where, 'periodMs', periodMs),
      ),
    );
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  toString(): string {
    return `GcraClient(${this.runner})`;
  }
}
