import { Counter, Histogram } from 'prom-client';
import { BODY_BYTES_BUCKETS, ScriptMetrics } from '../../pattern.ts';

/** The idempotency store's metrics: the seed's SRE checklist. */
export class IdempotencyMetrics extends ScriptMetrics {
  readonly staleCompletionRejected: Counter<'script'>;
  readonly leaseExpiredWhilePending: Counter;
  readonly bodyBytes: Histogram;

  constructor() {
    super('idempotency');
    const registers = [this.registry];
    this.staleCompletionRejected = new Counter({
      name: 'idempotency_stale_completion_rejected_total',
      help: 'complete or release answered 0: the owner check refused an attempt that no longer holds the key',
      labelNames: ['script'],
      registers,
    });
    this.leaseExpiredWhilePending = new Counter({
      name: 'idempotency_lease_expired_while_pending_total',
      help: 'Handlers whose lease was lost while they were still running (renew or the final complete answered 0)',
      registers,
    });
    this.bodyBytes = new Histogram({
      name: 'idempotency_body_bytes',
      help: 'Size of each response body offered for storage, rejected oversize bodies included',
      buckets: BODY_BYTES_BUCKETS,
      registers,
    });
  }
}
