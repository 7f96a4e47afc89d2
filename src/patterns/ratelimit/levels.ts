/**
 * The limiter's coarse answer: allowed or not, as a boolean, the way limiter libraries answer once
 * their remaining count is set aside. counter-has-ttl is read by the post-run probe, whatever the answers.
 */
import { booleanLevel, DONE, type LevelTable } from '../../pattern.ts';

export const ratelimitLevels: LevelTable = {
  hit: [
    booleanLevel(DONE, 'true allowed | false blocked', ['limit-respected', 'counter-has-ttl', 'model-conformance']),
  ],
};
