/** The counting semaphore with leases (lua/semaphore): at most `limit` holders at once, each until its own deadline. */
import { withLevels, type Pattern, leaseSettings } from '../../pattern.ts';
import { SEMAPHORE_SCRIPTS, SemaphoreClient } from './client.ts';
import { classifySemaphore } from './invariants.ts';
import { semaphoreLevels } from './levels.ts';
import { REACQUIRE, semaphore as model, type SemaphoreInput, type SemaphoreOutput, type SemaphoreState } from './model.ts';
import { semaphoreSession } from './sessions.ts';
import { SemaphoreSubject } from './subject.ts';
import { semaphoreRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `semaphore:{${namespace}:${logicalKey}}`;
const LIVE_ANSWER = '1 done | 0 not a live holder';

export const semaphore = {
  name: 'semaphore',
  operations: {
    acquire: { args: { token: 'string', limit: 'integer>=1', ttlMs: 'integer>=1' }, method: 'acquire', answer: '1 held | 0 full' },
    release: { args: { token: 'string' }, method: 'release', answer: LIVE_ANSWER },
    refresh: { args: { token: 'string', ttlMs: 'integer>=1' }, method: 'refresh', answer: LIVE_ANSWER },
  },
  model: withLevels(model, semaphoreLevels),
  levels: semaphoreLevels,
  holder: { arg: 'token', handedOutBy: ['acquire'] },
  // Redlock's validity rule: an acquire that took longer than its validity deletes its own value.
  givesBack: { acquire: { op: 'release', args: ['token'] } },
  variants: {
    reacquire: {
      choices: REACQUIRE,
      carriedBy: ['acquire'],
      meaning: {
        renews: 'a live holder that acquires again is renewed, whatever the count',
        counts: 'a live holder that acquires again is counted: on a full set, itself included, it is refused (0) and not renewed',
      },
    },
  },
  settings: { ...leaseSettings },
  session: semaphoreSession,
  races: semaphoreRaces,
  invariants: ['at-most-limit', 'no-stale-refresh', 'key-has-ttl', 'model-conformance'],
  witnesses: { 'at-most-limit': ['acquire'], 'no-stale-refresh': ['refresh'], 'key-has-ttl': ['acquire', 'refresh', 'release'] },
  classify: classifySemaphore,
  classifyPriority: ['at-most-limit', 'no-stale-refresh'],
  noTtl: { invariant: 'key-has-ttl', consequence: 'keeps its holders set forever' },
  transitions: [
    'free → held by acquire',
    'held → held by acquire',
    'held → held by refresh',
    'held → free by release',
    'held → held by release',
    'held → free by expiry',
    'held → held by expiry',
  ],
  requiredTransitions: [
    { transition: 'free → held by acquire', needs: ['acquire'] },
    { transition: 'held → held by acquire', needs: ['acquire'] },
    { transition: 'held → held by refresh', needs: ['acquire', 'refresh'] },
    { transition: 'held → free by release', needs: ['acquire', 'release'] },
    { transition: 'held → free by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['acquire'] },
  ],
  scripts: SEMAPHORE_SCRIPTS,
  redisKey,
  async openReference(redis, { scriptsDir, mode, namespace, quitOnClose }) {
    const client = await SemaphoreClient.open(redis, { scriptsDir, mode });
    return new SemaphoreSubject(client, redis, `lua:${scriptsDir} (reference semaphore client, ${mode})`, (key) => redisKey(namespace, key), quitOnClose);
  },
} as const satisfies Pattern<SemaphoreState, SemaphoreInput, SemaphoreOutput, SemaphoreSubject>;
