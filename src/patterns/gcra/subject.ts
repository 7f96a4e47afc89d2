import type { Cluster as IORedisCluster } from 'ioredis';
import { ReferenceAdapter } from '../../pattern.ts';
import type { GcraClient } from './client.ts';
import type { GcraInput, GcraOutput } from './model.ts';

/** The reference GCRA client as a Subject: a hit is one script call. */
export class GcraSubject extends ReferenceAdapter<GcraInput, GcraOutput> {
  constructor(
    readonly client: GcraClient,
    redis: IORedisCluster,
    name: string,
    keyOf: (logicalKey: string) => string,
    quitOnClose: boolean,
  ) {
    super(name, redis, keyOf, quitOnClose);
  }

  protected call(key: string, input: GcraInput): Promise<unknown> {
    if (input.op !== 'hit') throw new TypeError(`gcra subject: unknown op in ${JSON.stringify(input)}`);
    return this.client.hitRaw(key, input.burst, input.rate, input.periodMs);
  }

  metricsText(): Promise<string> {
    return this.client.metricsText();
  }
}
