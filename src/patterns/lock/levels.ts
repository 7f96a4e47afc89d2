/**
 * The lock's coarse answers, from what lock libraries return. redlock and redis-semaphore answer a
 * boolean (acquired or not; released/extended or not: "absent" and "another holder" are one
 * answer), and redis-semaphore's release resolves nothing whatever its script did.
 */
import { booleanLevel, isOne, voidLevel, type LevelTable } from '../levels.ts';

export const lockLevels: LevelTable = {
  acquire: [booleanLevel(isOne, 'true acquired | false held', ['one-holder', 'model-conformance'])],
  release: [booleanLevel(isOne, 'true released | false absent or another holder', ['no-stale-release', 'model-conformance']), voidLevel],
  extend: [booleanLevel(isOne, 'true extended | false absent or another holder', ['no-stale-release', 'model-conformance']), voidLevel],
};
