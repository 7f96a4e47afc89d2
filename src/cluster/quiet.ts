import type { Cluster as IORedisCluster } from 'ioredis';

/**
 * A harness-owned ioredis Cluster with an `error` listener. Every error that matters reaches the
 * command that meets it (and is recorded there); without a listener ioredis also prints each
 * failed slot refresh to stderr with its stack, hundreds of lines once a node or a proxy is gone.
 */
export function quiet<T extends IORedisCluster>(client: T): T {
  // Optional: the unit suites' stand-in clusters hand out clients that are not event emitters.
  (client as Partial<Pick<IORedisCluster, 'on'>>).on?.('error', () => undefined);
  return client;
}
