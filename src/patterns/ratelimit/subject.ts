import type { Cluster as IORedisCluster } from 'ioredis';
import { ReferenceAdapter } from '../../pattern.ts';
import type { LimiterClient } from './client.ts';
import type { RateLimitInput, RateLimitOutput } from './model.ts';

/** The reference limiter client as a Subject: a hit is one script call. */
export class RateLimitSubject extends ReferenceAdapter<RateLimitInput, RateLimitOutput> {
  constructor(
    readonly client: LimiterClient,
    redis: IORedisCluster,
    name: string,
    keyOf: (logicalKey: string) => string,
    quitOnClose: boolean,
  ) {
    super(name, redis, keyOf, quitOnClose);
  }

  protected call(key: string, input: RateLimitInput): Promise<unknown> {
    if (input.op !== 'hit') throw new TypeError(`ratelimit subject: unknown op in ${JSON.stringify(input)}`);
    return this.client.hitRaw(key, input.limit, input.windowSeconds);
  }

  metricsText(): Promise<string> {
    return this.client.metricsText();
  }
}
