/**
 * The semaphore's coarse answers: a boolean for each operation (acquired or full; released or
 * refreshed, or not a live holder), as semaphore libraries answer, and nothing at all for a release
 * or refresh whose result a library discards.
 */
import { booleanLevel, DONE, voidLevel, type LevelTable } from '../../pattern.ts';

export const semaphoreLevels: LevelTable = {
  acquire: [booleanLevel(DONE, 'true held | false full', ['at-most-limit', 'key-has-ttl', 'model-conformance'], [0])],
  release: [
    booleanLevel(DONE, 'true released | false not a live holder', ['key-has-ttl', 'model-conformance'], [0]),
    { ...voidLevel, witnesses: ['key-has-ttl'] },
  ],
  refresh: [
    booleanLevel(
      DONE,
      'true renewed | false not a live holder',
      ['no-stale-refresh', 'key-has-ttl', 'model-conformance'],
      [0],
    ),
    { ...voidLevel, witnesses: ['key-has-ttl'] },
  ],
};
