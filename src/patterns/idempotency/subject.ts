import { ReferenceAdapter } from '../../pattern.ts';
import type { IdempotencyStore } from './client.ts';
import type { IdempotencyInput, IdempotencyOutput } from './model.ts';

/** The reference idempotency store as a Subject: each model input is one script call. */
export class IdempotencySubject extends ReferenceAdapter<IdempotencyInput, IdempotencyOutput> {
  constructor(
    readonly store: IdempotencyStore,
    name: string,
    keyOf: (logicalKey: string) => string,
    quitOnClose: boolean,
  ) {
    super(name, store.redis, keyOf, quitOnClose);
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

  async metricsText(withMemory: boolean): Promise<string> {
    if (withMemory) await this.store.refreshMemory();
    return this.store.metricsText();
  }
}
