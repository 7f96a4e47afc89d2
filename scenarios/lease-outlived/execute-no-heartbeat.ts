import { fingerprint } from '../../src/patterns/idempotency/fingerprint.ts';
import { answerHit, type ExecuteOutcome, type Handler } from '../../src/patterns/idempotency/execute.ts';
import type { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';

/**
 * BROKEN client: the reference execute() with its heartbeat taken out. The lease is taken once at
 * register and never renewed, so a handler that runs longer than the lease loses the key mid-flight
 * and a retry of the same request registers fresh and runs the handler again. Everything else
 * (replay, conflict, release on failure, the lease-lost counter) is as in the reference.
 */
export async function executeWithoutHeartbeat(
  store: IdempotencyStore,
  key: string,
  request: unknown,
  handler: Handler,
  { leaseMs, ttlMs }: { leaseMs: number; ttlMs: number },
): Promise<ExecuteOutcome> {
  const requestFingerprint = fingerprint(request);
  const owner = store.newOwner();
  const registration = await store.registerOrGet(key, requestFingerprint, owner, { leaseMs });
  if (registration.kind === 'hit') return answerHit(registration, requestFingerprint);
  let response;
  try {
    response = await handler({ owner, signal: new AbortController().signal });
  } catch (error) {
    await store.release(key, owner).catch(() => undefined);
    throw error;
  }
  const stored = await store.complete(key, owner, response, { ttlMs });
  if (!stored) store.metrics.leaseExpiredWhilePending.inc();
  return { kind: 'executed', response, stored, leaseLost: !stored };
}
