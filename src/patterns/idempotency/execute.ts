import { fingerprint } from './fingerprint.ts';
import { Heartbeat } from './heartbeat.ts';
import type { Registration } from './replies.ts';
import type { IdempotencyMetrics } from './metrics.ts';

export interface StoredResponse {
  readonly status: number;
  readonly body: string;
}

export interface HandlerContext {
  /** The owner token of this attempt. */
  readonly owner: string;
  /** Aborted when the heartbeat finds the lease lost: another attempt may now run the same request. */
  readonly signal: AbortSignal;
}

export type Handler = (context: HandlerContext) => Promise<StoredResponse>;

export type ExecuteOutcome =
  /** The handler ran here. `stored` false: complete answered 0 (the lease was lost and the response was not kept). */
  | {
      readonly kind: 'executed';
      readonly response: StoredResponse;
      readonly stored: boolean;
      readonly leaseLost: boolean;
    }
  /** A completed record of the same request: its stored response, the handler did not run. */
  | { readonly kind: 'replayed'; readonly response: StoredResponse }
  /** The same request is pending under another attempt. */
  | { readonly kind: 'in-progress' }
  /** The key holds a different request (fingerprints differ): nothing is replayed. */
  | { readonly kind: 'conflict'; readonly storedFingerprint: string };

export function describeOutcome(outcome: ExecuteOutcome): string {
  switch (outcome.kind) {
    case 'executed':
      return `executed -> ${outcome.response.status}${outcome.stored ? '' : ' (not stored: lease lost)'}`;
    case 'replayed':
      return `replayed ${outcome.response.status}`;
    case 'in-progress':
      return 'in progress elsewhere';
    case 'conflict':
      return `conflict with fingerprint ${outcome.storedFingerprint.slice(0, 12)}…`;
  }
}

/** What a hit on an existing record means for this request. Conflict is checked first: another request's response is never replayed. */
export function answerHit(hit: Extract<Registration, { kind: 'hit' }>, requestFingerprint: string): ExecuteOutcome {
  if (hit.fingerprint !== requestFingerprint) return { kind: 'conflict', storedFingerprint: hit.fingerprint };
  if (hit.state === 'pending') return { kind: 'in-progress' };
  return { kind: 'replayed', response: { status: hit.status ?? 0, body: hit.body } };
}

/**
 * The store calls one attempt makes. Named here, not imported from the store (which calls
 * executeOnce), so the two files do not depend on each other; IdempotencyStore has this shape.
 */
export interface AttemptStore {
  readonly metrics: IdempotencyMetrics;
  newOwner(): string;
  registerOrGet(key: string, fingerprint: string, owner: string, options: { leaseMs: number }): Promise<Registration>;
  renew(key: string, owner: string, options: { leaseMs: number }): Promise<boolean>;
  complete(key: string, owner: string, response: StoredResponse, options: { ttlMs: number }): Promise<boolean>;
  release(key: string, owner: string): Promise<boolean>;
}

/**
 * One attempt: register; on a fresh key run the handler under a heartbeat (renew every lease/3),
 * then complete. A failure of the handler (or of complete, e.g. an oversize body) releases the key,
 * so the next attempt may run, and rethrows.
 */
export async function executeOnce(
  store: AttemptStore,
  key: string,
  request: unknown,
  handler: Handler,
  { leaseMs, ttlMs }: { leaseMs: number; ttlMs: number },
): Promise<ExecuteOutcome> {
  const requestFingerprint = fingerprint(request);
  const owner = store.newOwner();
  const registration = await store.registerOrGet(key, requestFingerprint, owner, { leaseMs });
  if (registration.kind === 'hit') return answerHit(registration, requestFingerprint);

  const lost = new AbortController();
  const heartbeat = new Heartbeat(
    Math.max(1, Math.floor(leaseMs / 3)),
    () => store.renew(key, owner, { leaseMs }),
    () => lost.abort(new Error(`lease on ${key} lost`)),
  ).start();
  let response: StoredResponse;
  let stored: boolean;
  try {
    response = await handler({ owner, signal: lost.signal });
    await heartbeat.stop();
    stored = await store.complete(key, owner, response, { ttlMs });
  } catch (error) {
    await heartbeat.stop();
    // The lease would clear the key anyway; a failed release must not hide the handler's error.
    await store.release(key, owner).catch(() => undefined);
    throw error;
  }
  const leaseLost = heartbeat.lost || !stored;
  if (leaseLost) store.metrics.leaseExpiredWhilePending.inc();
  return { kind: 'executed', response, stored, leaseLost };
}
