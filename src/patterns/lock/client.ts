import { randomBytes } from 'node:crypto';
import type { Cluster as IORedisCluster } from 'ioredis';
import {
  ScriptMetrics,
  openScriptRunner,
  scriptOptions,
  UnexpectedReplyError,
  zeroOrOne,
  type ScriptMode,
  type ScriptRunner,
  positiveInt,
} from '../../pattern.ts';

export const LOCK_SCRIPTS = ['acquire', 'remove_if_matches', 'extend_if_matches'] as const;
export const DEFAULT_LOCK_TTL_MS = 30_000;

/** remove_if_matches / extend_if_matches: nil -> absent, -1 -> held by another token, 0 -> the write did nothing, 1 -> done. */
export type MatchOutcome = 'absent' | 'other-token' | 'no-effect' | 'done';

export function parseMatchReply(script: string, reply: unknown): MatchOutcome {
  if (reply === null) return 'absent';
  if (reply === -1) return 'other-token';
  if (reply === 0) return 'no-effect';
  if (reply === 1) return 'done';
  throw new UnexpectedReplyError(script, reply, 'nil, -1, 0 or 1');
}

export interface LockClientOptions {
  /** Directory with acquire.lua, remove_if_matches.lua, extend_if_matches.lua. Default: the project's lua/lock. */
  scriptsDir?: string;
  mode?: ScriptMode;
  /** Default lock TTL, ms. Default 30 000. */
  ttlMs?: number;
}

const WHERE = 'LockClient';

/** A lock released by compare-and-delete, in one script so no other holder's lock can be deleted between the compare and the delete: only the holder of the stored token may release or extend it. */
export class LockClient {
  readonly metrics: ScriptMetrics;

  private constructor(
    readonly runner: ScriptRunner,
    metrics: ScriptMetrics,
    readonly ttlMs: number,
  ) {
    this.metrics = metrics;
  }

  static async open(redis: IORedisCluster, options: LockClientOptions = {}): Promise<LockClient> {
    const { mode, dir } = scriptOptions(WHERE, options, ['scriptsDir', 'mode', 'ttlMs'], 'lock');
    const ttlMs = positiveInt(WHERE, 'ttlMs', options.ttlMs ?? DEFAULT_LOCK_TTL_MS);
    const metrics = new ScriptMetrics('lock');
    const runner = await openScriptRunner(
      redis,
      { dir, names: LOCK_SCRIPTS, mode, functionPrefix: 'lock' },
      metrics.observer(),
    );
    return new LockClient(runner, metrics, ttlMs);
  }

  /** A random token naming one holder. */
  newToken(): string {
    return randomBytes(12).toString('hex');
  }

  // The *Raw calls pass arguments through unchecked: certification feeds them edge values on purpose.
  acquireRaw(key: string, token: string, ttlMs: number): Promise<unknown> {
    return this.runner.call('acquire', key, [token, ttlMs]);
  }

  releaseRaw(key: string, token: string): Promise<unknown> {
    return this.runner.call('remove_if_matches', key, [token]);
  }

  extendRaw(key: string, token: string, ttlMs: number): Promise<unknown> {
    return this.runner.call('extend_if_matches', key, [token, ttlMs]);
  }

  /** true when acquired; false when anyone (this token included) holds it. */
  async acquire(key: string, token: string, ttlMs = this.ttlMs): Promise<boolean> {
    return zeroOrOne('acquire', await this.acquireRaw(key, token, positiveInt(`${WHERE}.acquire`, 'ttlMs', ttlMs)));
  }

  async release(key: string, token: string): Promise<MatchOutcome> {
    return parseMatchReply('remove_if_matches', await this.releaseRaw(key, token));
  }

  async extend(key: string, token: string, ttlMs = this.ttlMs): Promise<MatchOutcome> {
    return parseMatchReply(
      'extend_if_matches',
      await this.extendRaw(key, token, positiveInt(`${WHERE}.extend`, 'ttlMs', ttlMs)),
    );
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  toString(): string {
    return `LockClient(${this.runner}, ttl ${this.ttlMs} ms)`;
  }
}
