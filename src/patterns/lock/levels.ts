/**
 * The lock's coarse answers, from what lock libraries return. redlock and redis-semaphore answer a
 * boolean (acquired or not; released/extended or not: "absent" and "another holder" are one
 * answer), and redis-semaphore's release resolves nothing whatever its script did.
 */
import { booleanLevel, DONE, voidLevel, type LevelTable } from '../../pattern.ts';

export const lockLevels: LevelTable = {
  acquire: [booleanLevel(DONE, 'true acquired | false held', ['one-holder', 'model-conformance'], [0])],
  // False is nil or -1 (the model never prescribes 0): either way its token did not hold the lock.
  release: [
    booleanLevel(
      DONE,
      'true released | false absent or another holder',
      ['no-stale-release', 'model-conformance'],
      [null, -1],
    ),
    voidLevel,
  ],
  extend: [
    booleanLevel(
      DONE,
      'true extended | false absent or another holder',
      ['no-stale-release', 'model-conformance'],
      [null, -1],
    ),
    voidLevel,
  ],
};
