import type { Cluster as IORedisCluster } from 'ioredis';

export interface FlushStorm {
  /** The client to hand to the runner: every EVALSHA through it finds the node's cache freshly emptied. */
  readonly redis: IORedisCluster;
  /** EVALSHA commands sent through it so far. */
  readonly attempts: () => number;
}

/**
 * A fault no timing can make flaky: "something keeps flushing the script cache". SCRIPT FLUSH lands
 * on the key's node right before every EVALSHA, so a reload is always undone before its retry,
 * and a client that retried on NOSCRIPT without a bound would never stop.
 */
export function flushStorm(redis: IORedisCluster, flush: () => Promise<unknown>): FlushStorm {
  let attempts = 0;
  const proxy = new Proxy(redis, {
    get(target, prop) {
      if (prop === 'evalsha') {
        return async (...args: Parameters<IORedisCluster['evalsha']>) => {
          attempts++;
          await flush();
          return target.evalsha(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { redis: proxy, attempts: () => attempts };
}
