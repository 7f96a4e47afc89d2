import type { PatternSetting } from '../../pattern.ts';

/**
 * What a job may set for the GCRA limiter's sessions (`--set burst=N --set rate=N --set period=MS`):
 * the same limit for every key and client of a job, as a service configures one. The defaults (3 at
 * once, 5 per second: a 200 ms interval) let a burst of hits be refused within a run and let places
 * free within a pause; redis_rate's `PerSecond(n)` is `rate=n burst=n period=1000`.
 */
export const gcraSettings = {
  burst: { description: 'hits allowed at once', min: 1, max: 20, default: 3 },
  rate: { description: 'hits allowed per period on average', min: 1, max: 100, default: 5 },
  period: { description: 'the period, in ms', min: 10, max: 60_000, default: 1_000 },
} as const satisfies Readonly<Record<string, PatternSetting>>;
