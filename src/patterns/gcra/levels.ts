/** The GCRA limiter's coarse answer: allowed or not, as redis_rate's `Result.Allowed > 0` says it. */
import { booleanLevel, DONE, type LevelTable } from '../../pattern.ts';

export const gcraLevels: LevelTable = {
  hit: [booleanLevel(DONE, 'true allowed | false blocked', ['burst-respected', 'key-has-ttl', 'model-conformance'])],
};
