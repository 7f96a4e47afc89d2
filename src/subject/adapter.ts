import type { Cluster as IORedisCluster } from 'ioredis';
import type { Subject } from './types.ts';

/** A Subject whose logical keys map to Redis keys in a known way (tests inspect them), with its client's metrics. */
export interface ReferenceSubject<I, O> extends Subject<I, O> {
  redisKey(logicalKey: string): string;
  /** The client's Prometheus text; `withMemory`: refresh the Redis memory gauges first (once a job is enough). */
  metricsText(withMemory: boolean): Promise<string>;
}

/**
 * The reference clients as Subjects (one subclass per pattern, in src/patterns/<name>/subject.ts).
 * Outputs are the scripts' raw replies, unchecked: the reply is the implementation's answer and only
 * the model judges it (the `O` type is what a conforming implementation returns, not a guarantee).
 */
export abstract class ReferenceAdapter<I, O> implements ReferenceSubject<I, O> {
  constructor(
    readonly name: string,
    protected readonly redis: IORedisCluster,
    private readonly keyOf: (logicalKey: string) => string,
    private readonly quitOnClose: boolean,
  ) {}

  protected abstract call(redisKey: string, input: I): Promise<unknown>;
  abstract metricsText(withMemory: boolean): Promise<string>;

  redisKey(logicalKey: string): string {
    return this.keyOf(logicalKey);
  }

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
