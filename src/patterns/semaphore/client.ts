import { randomBytes } from 'node:crypto';
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

export const SEMAPHORE_SCRIPTS = ['acquire', 'release', 'refresh'] as const;
export const DEFAULT_SEMAPHORE_TTL_MS = 30_000;

export interface SemaphoreClientOptions {
  /** Directory with acquire.lua, release.lua, refresh.lua. Default: the project's lua/semaphore. */
  scriptsDir?: string;
  mode?: ScriptMode;
  /** Default lease of a holder, ms. Default 30 000. */
  ttlMs?: number;
}

const WHERE = 'SemaphoreClient';

/** A counting semaphore with leases: at most `limit` holders at once, each until its deadline on the server's clock. */
export class SemaphoreClient {
  private constructor(
    readonly runner: ScriptRunner,
    readonly metrics: ScriptMetrics,
    readonly ttlMs: number,
  ) {}

  static async open(redis: IORedisCluster, options: SemaphoreClientOptions = {}): Promise<SemaphoreClient> {
    const { mode, dir } = scriptOptions(WHERE, options, ['scriptsDir', 'mode', 'ttlMs'], 'semaphore');
    const ttlMs = positiveInt(WHERE, 'ttlMs', options.ttlMs ?? DEFAULT_SEMAPHORE_TTL_MS);
    const metrics = new ScriptMetrics('semaphore');
    const runner = await openScriptRunner(
      redis,
      { dir, names: SEMAPHORE_SCRIPTS, mode, functionPrefix: 'semaphore' },
      metrics.observer(),
    );
    return new SemaphoreClient(runner, metrics, ttlMs);
  }

  /** A random token naming one holder. */
  newToken(): string {
    return randomBytes(12).toString('hex');
  }

  // The *Raw calls pass arguments through unchecked: certification feeds them edge values on purpose.
  acquireRaw(key: string, token: string, limit: number, ttlMs: number): Promise<unknown> {
    return this.runner.call('acquire', key, [token, limit, ttlMs]);
  }

  releaseRaw(key: string, token: string): Promise<unknown> {
    return this.runner.call('release', key, [token]);
  }

  refreshRaw(key: string, token: string, ttlMs: number): Promise<unknown> {
    return this.runner.call('refresh', key, [token, ttlMs]);
  }

  /** true when `token` holds a place (new, or renewed); false when all `limit` places are taken. */
  async acquire(key: string, token: string, limit: number, ttlMs = this.ttlMs): Promise<boolean> {
    const where = `${WHERE}.acquire`;
    return zeroOrOne(
      'acquire',
      await this.acquireRaw(key, token, positiveInt(where, 'limit', limit), positiveInt(where, 'ttlMs', ttlMs)),
    );
  }

  /** true when released; false when `token` was not a live holder. */
  async release(key: string, token: string): Promise<boolean> {
    return zeroOrOne('release', await this.releaseRaw(key, token));
  }

  /** true when renewed; false when `token` was not a live holder (an expired holder must acquire again). */
  async refresh(key: string, token: string, ttlMs = this.ttlMs): Promise<boolean> {
    return zeroOrOne('refresh', await this.refreshRaw(key, token, positiveInt(`${WHERE}.refresh`, 'ttlMs', ttlMs)));
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  toString(): string {
    return `SemaphoreClient(${this.runner}, ttl ${this.ttlMs} ms)`;
  }
}
