import type { PatternName } from '../plan/schedule.ts';

/** The named invariants certified for each pattern, in the order reports list them. */
export const INVARIANTS: Readonly<Record<PatternName, readonly string[]>> = {
  idempotency: ['one-winner', 'no-stale-overwrite', 'no-resurrection', 'model-conformance'],
  lock: ['one-holder', 'no-stale-release', 'model-conformance'],
  ratelimit: ['limit-respected', 'counter-has-ttl', 'model-conformance'],
};
