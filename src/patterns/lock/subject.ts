import type { Cluster as IORedisCluster } from 'ioredis';
import { ReferenceAdapter } from '../../pattern.ts';
import type { LockClient } from './client.ts';
import type { LockInput, LockOutput } from './model.ts';

/** The reference lock client as a Subject: each model input is one script call. */
export class LockSubject extends ReferenceAdapter<LockInput, LockOutput> {
  constructor(
    readonly client: LockClient,
    redis: IORedisCluster,
    name: string,
    keyOf: (logicalKey: string) => string,
    quitOnClose: boolean,
  ) {
    super(name, redis, keyOf, quitOnClose);
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

  metricsText(): Promise<string> {
    return this.client.metricsText();
  }
}
