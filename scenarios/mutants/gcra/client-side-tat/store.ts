import type { Cluster } from 'ioredis';

/** The scripts' epoch: milliseconds since 2017-01-01 (lua/gcra/gcra.lua). */
const EPOCH_MS = 1_483_228_800_000;

/**
 * MUTANT (slip): GCRA done from the client — GET the arrival time, decide, then SET the new one in
 * a second round trip. Two hits that both read the TAT before either moves it are both allowed:
 * more hits at once than the burst. (Time is the host's, as the script's TIME: one machine here.)
 */
export function createStore(redis: Cluster) {
  return {
    async hit(key: string, burst: number, rate: number, periodMs: number) {
      const interval = periodMs / rate;
      const now = Date.now() - EPOCH_MS;
      const stored = await redis.get(key);
      const tat = Math.max(stored === null ? now : Number(stored), now);
      const next = tat + interval;
      if (next - burst * interval > now) return 0;
      await redis.set(key, next.toFixed(3), 'PX', Math.ceil(next - now));
      return 1;
    },
  };
}
