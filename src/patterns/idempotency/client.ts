import type { Cluster as IORedisCluster } from 'ioredis';
import { IDEMPOTENCY_SCRIPTS, IdempotencyCalls } from './calls.ts';
import { defaultInstanceId, makeOwner } from './keys.ts';
import { parseRegistration, type Registration } from './replies.ts';
import { IdempotencyMetrics } from './metrics.ts';
import {
  openScriptRunner,
  scriptOptions,
  zeroOrOne,
  type ScriptMode,
  type ScriptRunner,
  knownKeys,
  nonEmptyString,
  positiveInt,
} from '../../pattern.ts';
import { executeOnce, type ExecuteOutcome, type Handler } from './execute.ts';

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_TTL_MS = 86_400_000;

export interface IdempotencyStoreOptions {
  /** Directory with register_or_get.lua, complete.lua, release.lua, renew.lua (or library.lua for fcall). Default: the project's lua/idempotency. */
  scriptsDir?: string;
  /** 'evalsha' (default) or 'fcall' (Functions library `idem_*`). */
  mode?: ScriptMode;
  /** Lease of a pending key, ms. Default 60 000. */
  leaseMs?: number;
  /** Lifetime of a completed record, ms. Default 24 h. */
  ttlMs?: number;
  /** First half of every owner token. Default: host-pid-random. */
  instanceId?: string;
}

export interface LeaseOption {
  leaseMs?: number;
}
export interface TtlOption {
  ttlMs?: number;
}

const WHERE = 'IdempotencyStore';
const KNOWN = ['scriptsDir', 'mode', 'leaseMs', 'ttlMs', 'instanceId'] as const;

/**
 * The reference client of the idempotency-key store: register_or_get / complete / release / renew over the Lua scripts,
 * and `execute()`, which turns them into "run this handler at most once per key".
 * Keys are passed in already scoped (see scopedKey).
 */
export class IdempotencyStore {
  readonly metrics: IdempotencyMetrics;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly instanceId: string;

  private constructor(
    readonly redis: IORedisCluster,
    readonly calls: IdempotencyCalls,
    options: Required<Omit<IdempotencyStoreOptions, 'scriptsDir' | 'mode'>>,
  ) {
    this.metrics = calls.metrics;
    this.leaseMs = options.leaseMs;
    this.ttlMs = options.ttlMs;
    this.instanceId = options.instanceId;
  }

  /** Read the scripts, load them on every master, and return a ready store. */
  static async open(redis: IORedisCluster, options: IdempotencyStoreOptions = {}): Promise<IdempotencyStore> {
    const { mode, dir } = scriptOptions(WHERE, options, KNOWN, 'idempotency');
    const metrics = new IdempotencyMetrics();
    const runner = await openScriptRunner(
      redis,
      { dir, names: IDEMPOTENCY_SCRIPTS, mode, functionPrefix: 'idem' },
      metrics.observer(),
    );
    return IdempotencyStore.withRunner(redis, runner, metrics, options);
  }

  /** A store over a runner built elsewhere (tests, a custom loader). The runner should report to `metrics.observer()`. */
  static withRunner(
    redis: IORedisCluster,
    runner: ScriptRunner,
    metrics: IdempotencyMetrics,
    options: Omit<IdempotencyStoreOptions, 'scriptsDir' | 'mode'> = {},
  ): IdempotencyStore {
    knownKeys(WHERE, options, KNOWN);
    return new IdempotencyStore(redis, new IdempotencyCalls(runner, metrics), {
      leaseMs: positiveInt(WHERE, 'leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS),
      ttlMs: positiveInt(WHERE, 'ttlMs', options.ttlMs ?? DEFAULT_TTL_MS),
      instanceId: nonEmptyString(WHERE, 'instanceId', options.instanceId ?? defaultInstanceId()),
    });
  }

  /** A fresh owner token for one attempt: this store's instance id + a random nonce. */
  newOwner(): string {
    return makeOwner(this.instanceId);
  }

  async registerOrGet(
    key: string,
    fingerprint: string,
    owner: string,
    options: LeaseOption = {},
  ): Promise<Registration> {
    return parseRegistration(
      await this.calls.registerOrGet(key, fingerprint, owner, this.lease(options, 'registerOrGet')),
    );
  }

  /** true when stored; false when this owner no longer holds the key (a stale attempt). Bodies over 64 KiB throw BodyTooLargeError. */
  async complete(
    key: string,
    owner: string,
    response: { status: number; body: string },
    options: TtlOption = {},
  ): Promise<boolean> {
    knownKeys(`${WHERE}.complete`, options, ['ttlMs']);
    const ttlMs = positiveInt(`${WHERE}.complete`, 'ttlMs', options.ttlMs ?? this.ttlMs);
    return zeroOrOne('complete', await this.calls.complete(key, owner, response.status, response.body, ttlMs));
  }

  /** true when the pending key was deleted; false when another owner holds it, or it is completed or gone. */
  async release(key: string, owner: string): Promise<boolean> {
    return zeroOrOne('release', await this.calls.release(key, owner));
  }

  /** true when the lease was extended; false when the key is no longer this owner's pending key. */
  async renew(key: string, owner: string, options: LeaseOption = {}): Promise<boolean> {
    return zeroOrOne('renew', await this.calls.renew(key, owner, this.lease(options, 'renew')));
  }

  /**
   * Run `handler` at most once per key (within the lease/TTL rules): replay a completed response for
   * the same request, report "in-progress" or "conflict" otherwise. See idempotency-execute.ts.
   */
  execute(
    key: string,
    request: unknown,
    handler: Handler,
    options: LeaseOption & TtlOption = {},
  ): Promise<ExecuteOutcome> {
    knownKeys(`${WHERE}.execute`, options, ['leaseMs', 'ttlMs']);
    const leaseMs = this.lease({ leaseMs: options.leaseMs }, 'execute');
    const ttlMs = positiveInt(`${WHERE}.execute`, 'ttlMs', options.ttlMs ?? this.ttlMs);
    return executeOnce(this, key, request, handler, { leaseMs, ttlMs });
  }

  /** Prometheus text of this store's registry (memory gauges as of the last refreshMemory()). */
  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  /** INFO memory on every master, into the redis_memory_* gauges. */
  refreshMemory(): Promise<void> {
    return this.metrics.refreshMemory(this.redis);
  }

  get noscriptFallbacks(): number {
    return this.calls.runner.fallbacks;
  }

  private lease(options: LeaseOption, method: string): number {
    knownKeys(`${WHERE}.${method}`, options, ['leaseMs']);
    return positiveInt(`${WHERE}.${method}`, 'leaseMs', options.leaseMs ?? this.leaseMs);
  }

  toString(): string {
    return `IdempotencyStore(${this.calls.runner}, lease ${this.leaseMs} ms, ttl ${this.ttlMs} ms)`;
  }
}
