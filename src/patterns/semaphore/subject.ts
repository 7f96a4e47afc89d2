import type { Cluster as IORedisCluster } from 'ioredis';
import { ReferenceAdapter } from '../../pattern.ts';
import type { SemaphoreClient } from './client.ts';
import type { SemaphoreInput, SemaphoreOutput } from './model.ts';

/** The reference semaphore client as a Subject: each model input is one script call. */
export class SemaphoreSubject extends ReferenceAdapter<SemaphoreInput, SemaphoreOutput> {
  constructor(
    readonly client: SemaphoreClient,
    redis: IORedisCluster,
    name: string,
    keyOf: (logicalKey: string) => string,
    quitOnClose: boolean,
  ) {
    super(name, redis, keyOf, quitOnClose);
  }

  protected call(key: string, input: SemaphoreInput): Promise<unknown> {
    switch (input.op) {
      case 'acquire':
        return this.client.acquireRaw(key, input.token, input.limit, input.ttlMs);
      case 'release':
        return this.client.releaseRaw(key, input.token);
      case 'refresh':
        return this.client.refreshRaw(key, input.token, input.ttlMs);
      default:
        throw new TypeError(`semaphore subject: unknown op in ${JSON.stringify(input)}`);
    }
  }

  metricsText(): Promise<string> {
    return this.client.metricsText();
  }
}
