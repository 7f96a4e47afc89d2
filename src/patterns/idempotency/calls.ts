import { bodyBytes, checkBodySize } from './body-cap.ts';
import type { IdempotencyMetrics } from './metrics.ts';
import type { ScriptRunner } from '../../pattern.ts';

export const IDEMPOTENCY_SCRIPTS = ['register_or_get', 'complete', 'release', 'renew'] as const;

/**
 * The four scripts, one call each, replies returned raw (the certification adapter hands them to the
 * model as they came). Client-side policy that must hold on every path lives here: the body cap and
 * the stale-completion counter.
 */
export class IdempotencyCalls {
  constructor(
    readonly runner: ScriptRunner,
    readonly metrics: IdempotencyMetrics,
  ) {}

  registerOrGet(key: string, fingerprint: string, owner: string, leaseMs: number): Promise<unknown> {
    return this.runner.call('register_or_get', key, [fingerprint, owner, leaseMs]);
  }

  /** Throws BodyTooLargeError before anything reaches Redis when the body is over the cap. */
  async complete(key: string, owner: string, status: number | string, body: string, ttlMs: number): Promise<unknown> {
    this.metrics.bodyBytes.observe(bodyBytes(body));
    checkBodySize(body);
    return this.countRejection('complete', await this.runner.call('complete', key, [owner, status, body, ttlMs]));
  }

  async release(key: string, owner: string): Promise<unknown> {
    return this.countRejection('release', await this.runner.call('release', key, [owner]));
  }

  renew(key: string, owner: string, leaseMs: number): Promise<unknown> {
    return this.runner.call('renew', key, [owner, leaseMs]);
  }

  private countRejection(script: 'complete' | 'release', reply: unknown): unknown {
    if (reply === 0) this.metrics.staleCompletionRejected.inc({ script });
    return reply;
  }
}
