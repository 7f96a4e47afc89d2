import type { Cluster as IORedisCluster } from 'ioredis';
import type { IdempotencyInput, IdempotencyOutput, LockInput, LockOutput, RateLimitInput, RateLimitOutput } from '../model/index.ts';
import { IdempotencyStore } from './idempotency-client.ts';
import { LimiterClient, type LimiterVariant } from './limiter-client.ts';
import { LockClient } from './lock-client.ts';
import { projectScriptsDir } from './paths.ts';
import { redisKeyFor } from './redis-keys.ts';
import type { ScriptMode } from './scripts.ts';
import type { Subject } from './types.ts';
import { knownKeys, nonEmptyString, oneOf } from './validate.ts';

/** Client options every harness connection uses: RESP2, and a bound on a stuck command. */
export const HARNESS_REDIS_OPTIONS = { redisOptions: { commandTimeout: 2_000 } } as const;

export type ReferencePattern = 'idempotency' | 'lock' | 'ratelimit';

export interface ReferenceSubjectOptions {
  /** Scripts directory (`certify --impl lua:DIR`). Default: the project's lua/<pattern>. */
  scriptsDir?: string;
  mode?: ScriptMode;
  /** Goes into every Redis key, so runs on a shared cluster do not meet. Default 'chaoslua'. */
  namespace?: string;
  /** ratelimit only: which script answers. Default 'get-first'. */
  variant?: LimiterVariant;
  /** Quit the Redis client on close(). Default false: whoever created it closes it. */
  quitOnClose?: boolean;
}

/** A Subject whose logical keys map to Redis keys in a known way (tests inspect them). */
export interface ReferenceSubject<I, O> extends Subject<I, O> {
  redisKey(logicalKey: string): string;
}

/**
 * Outputs are the scripts' raw replies, unchecked: the reply is the implementation's answer and only
 * the model judges it (the `O` type is what a conforming implementation returns, not a guarantee).
 */
abstract class Adapter<I, O> implements ReferenceSubject<I, O> {
  constructor(readonly name: string, protected readonly redis: IORedisCluster, protected readonly namespace: string, private readonly quitOnClose: boolean) {}

  abstract redisKey(logicalKey: string): string;
  protected abstract call(redisKey: string, input: I): Promise<unknown>;

  async invoke(key: string, input: I): Promise<O> {
    return (await this.call(this.redisKey(key), input)) as O;
  }

  async close(): Promise<void> {
    if (this.quitOnClose) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  toString(): string {
    return this.name;
  }
}

export class IdempotencySubject extends Adapter<IdempotencyInput, IdempotencyOutput> {
  constructor(readonly store: IdempotencyStore, name: string, namespace: string, quitOnClose: boolean) {
    super(name, store.redis, namespace, quitOnClose);
  }

  redisKey(logicalKey: string): string {
    return redisKeyFor('idempotency', this.namespace, logicalKey);
  }

  protected call(key: string, input: IdempotencyInput): Promise<unknown> {
    const calls = this.store.calls;
    switch (input.op) {
      case 'register':
        return calls.registerOrGet(key, input.fingerprint, input.owner, input.leaseMs);
      case 'complete':
        return calls.complete(key, input.owner, input.status, input.body, input.ttlMs);
      case 'release':
        return calls.release(key, input.owner);
      case 'renew':
        return calls.renew(key, input.owner, input.leaseMs);
      default:
        throw new TypeError(`idempotency subject: unknown op in ${JSON.stringify(input)}`);
    }
  }
}

export class LockSubject extends Adapter<LockInput, LockOutput> {
  constructor(readonly client: LockClient, redis: IORedisCluster, name: string, namespace: string, quitOnClose: boolean) {
    super(name, redis, namespace, quitOnClose);
  }

  redisKey(logicalKey: string): string {
    return redisKeyFor('lock', this.namespace, logicalKey);
  }

  protected call(key: string, input: LockInput): Promise<unknown> {
    switch (input.op) {
      case 'acquire':
        return this.client.acquireRaw(key, input.token, input.ttlMs);
      case 'release':
        return this.client.releaseRaw(key, input.token);
      case 'extend':
        return this.client.extendRaw(key, input.token, input.ttlMs);
      default:
        throw new TypeError(`lock subject: unknown op in ${JSON.stringify(input)}`);
    }
  }
}

export class RateLimitSubject extends Adapter<RateLimitInput, RateLimitOutput> {
  constructor(readonly client: LimiterClient, redis: IORedisCluster, name: string, namespace: string, quitOnClose: boolean) {
    super(name, redis, namespace, quitOnClose);
  }

  redisKey(logicalKey: string): string {
    return redisKeyFor('ratelimit', this.namespace, logicalKey);
  }

  protected call(key: string, input: RateLimitInput): Promise<unknown> {
    if (input.op !== 'hit') throw new TypeError(`ratelimit subject: unknown op in ${JSON.stringify(input)}`);
    return this.client.hitRaw(key, input.limit, input.windowSeconds);
  }
}

const WHERE = 'createReferenceSubject';

export function createReferenceSubject(pattern: 'idempotency', redis: IORedisCluster, options?: ReferenceSubjectOptions): Promise<IdempotencySubject>;
export function createReferenceSubject(pattern: 'lock', redis: IORedisCluster, options?: ReferenceSubjectOptions): Promise<LockSubject>;
export function createReferenceSubject(pattern: 'ratelimit', redis: IORedisCluster, options?: ReferenceSubjectOptions): Promise<RateLimitSubject>;
export function createReferenceSubject(pattern: ReferencePattern, redis: IORedisCluster, options?: ReferenceSubjectOptions): Promise<IdempotencySubject | LockSubject | RateLimitSubject>;
/** The reference client over a scripts directory, as a Subject: loads the scripts on every master first. */
export async function createReferenceSubject(
  pattern: ReferencePattern,
  redis: IORedisCluster,
  options: ReferenceSubjectOptions = {},
): Promise<IdempotencySubject | LockSubject | RateLimitSubject> {
  knownKeys(WHERE, options, ['scriptsDir', 'mode', 'namespace', 'variant', 'quitOnClose']);
  oneOf(WHERE, 'pattern', pattern, ['idempotency', 'lock', 'ratelimit']);
  if (options.variant !== undefined && pattern !== 'ratelimit') throw new RangeError(`${WHERE}: variant applies to ratelimit only, not ${pattern}`);
  const scriptsDir = nonEmptyString(WHERE, 'scriptsDir', options.scriptsDir ?? projectScriptsDir(pattern));
  const mode = oneOf(WHERE, 'mode', options.mode ?? 'evalsha', ['evalsha', 'fcall']);
  const namespace = nonEmptyString(WHERE, 'namespace', options.namespace ?? 'chaoslua');
  if (/[{}]/.test(namespace)) throw new RangeError(`${WHERE}: namespace must not contain braces (it sits inside the hash tag), got ${namespace}`);
  const quitOnClose = options.quitOnClose ?? false;
  switch (pattern) {
    case 'idempotency': {
      const store = await IdempotencyStore.open(redis, { scriptsDir, mode });
      return new IdempotencySubject(store, `lua:${scriptsDir} (reference idempotency client, ${mode})`, namespace, quitOnClose);
    }
    case 'lock': {
      const client = await LockClient.open(redis, { scriptsDir, mode });
      return new LockSubject(client, redis, `lua:${scriptsDir} (reference lock client, ${mode})`, namespace, quitOnClose);
    }
    case 'ratelimit': {
      const variant = options.variant ?? 'get-first';
      const client = await LimiterClient.open(redis, { scriptsDir, mode, variant });
      return new RateLimitSubject(client, redis, `lua:${scriptsDir} (reference limiter client, ${variant}, ${mode})`, namespace, quitOnClose);
    }
  }
}
