import type { Cluster as IORedisCluster } from 'ioredis';
import {
  ScriptMetrics,
  openScriptRunner,
  scriptOptions,
  zeroOrOne,
  type ScriptMode,
  type ScriptRunner,
  oneOf,
  positiveInt,
} from '../../pattern.ts';

export type LimiterVariant = 'get-first' | 'incr-first';
export const LIMITER_SCRIPTS = ['fixed_window', 'fixed_window_incr_first'] as const;
const SCRIPT_OF: Record<LimiterVariant, (typeof LIMITER_SCRIPTS)[number]> = {
  'get-first': 'fixed_window',
  'incr-first': 'fixed_window_incr_first',
};

export interface LimiterClientOptions {
  /** Directory with fixed_window.lua and fixed_window_incr_first.lua. Default: the project's lua/ratelimit. */
  scriptsDir?: string;
  mode?: ScriptMode;
  /** 'get-first' (default: GET, then INCR below the limit) or 'incr-first' (INCR, then compare). */
  variant?: LimiterVariant;
}

const WHERE = 'LimiterClient';

/** Fixed-window rate limiter: one atomic script call per decision, so no two clients read the same count. */
export class LimiterClient {
  private constructor(
    readonly runner: ScriptRunner,
    readonly metrics: ScriptMetrics,
    readonly variant: LimiterVariant,
  ) {}

  static async open(redis: IORedisCluster, options: LimiterClientOptions = {}): Promise<LimiterClient> {
    const { mode, dir } = scriptOptions(WHERE, options, ['scriptsDir', 'mode', 'variant'], 'ratelimit');
    const variant = oneOf(WHERE, 'variant', options.variant ?? 'get-first', ['get-first', 'incr-first']);
    const metrics = new ScriptMetrics('ratelimit');
    const runner = await openScriptRunner(
      redis,
      { dir, names: LIMITER_SCRIPTS, mode, functionPrefix: 'ratelimit' },
      metrics.observer(),
    );
    return new LimiterClient(runner, metrics, variant);
  }

  /** Arguments pass through unchecked: certification feeds edge values on purpose. */
  hitRaw(key: string, limit: number, windowSeconds: number): Promise<unknown> {
    return this.runner.call(SCRIPT_OF[this.variant], key, [limit, windowSeconds]);
  }

  /** true: allowed; false: blocked for the rest of the window. */
  async hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    positiveInt(`${WHERE}.hit`, 'limit', limit);
    positiveInt(`${WHERE}.hit`, 'windowSeconds', windowSeconds);
    return zeroOrOne(SCRIPT_OF[this.variant], await this.hitRaw(key, limit, windowSeconds));
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  toString(): string {
    return `LimiterClient(${this.variant}, ${this.runner})`;
  }
}
