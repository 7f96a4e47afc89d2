import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): the reference fixed-window script, but any Redis error (timeout, dropped
 * connection, failover) allows the hit — "fail open, never block a customer because Redis
 * hiccuped". The allowed hit is not counted, so the window lets more than the limit through.
 * Shows only when a fault makes a hit fail.
 */
export function createStore(redis: Cluster) {
  const fixedWindow = referenceCommand(redis, 'ratelimit', 'fixed_window');
  return {
    async hit(key: string, limit: number, windowSeconds: number) {
      try {
        return await fixedWindow(key, limit, windowSeconds);
      } catch {
        return 1;
      }
    },
  };
}
