/**
 * The counting semaphore with leases (lua/semaphore): at most `limit` holders at once, each until its
 * own deadline. Declared with the pattern API a team uses (definePattern): the core (operations, the
 * model, its invariants) and the opt-in groups it needs beyond it: its own sessions and races, the
 * answers semaphore libraries give (levels, holder handles, Redlock's give-back, the reacquire
 * variant), the search's holder lookahead and its reference client.
 */
import { arg, compilePattern, definePattern, type Pattern } from '../../pattern.ts';
import { SemaphoreClient } from './client.ts';
import { classifySemaphore } from './invariants.ts';
import { semaphoreLevels } from './levels.ts';
import {
  REACQUIRE,
  semaphore as model,
  type SemaphoreInput,
  type SemaphoreOutput,
  type SemaphoreState,
} from './model.ts';
import { semaphoreSession } from './sessions.ts';
import { SemaphoreSubject } from './subject.ts';
import { semaphoreRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `semaphore:{${namespace}:${logicalKey}}`;
const LIVE_ANSWER = '1 done | 0 not a live holder';

const spec = definePattern<SemaphoreState, SemaphoreInput, SemaphoreOutput>({
  name: 'semaphore',
  operations: {
    // The sessions keep one limit per key, 1 to 3 (./sessions.ts).
    acquire: {
      args: { token: arg.holder(), limit: arg.integer({ min: 1, max: 3 }), ttlMs: arg.lease() },
      lease: 'ttlMs',
      answer: '1 held | 0 full',
    },
    release: { args: { token: arg.holder() }, answer: LIVE_ANSWER },
    refresh: { args: { token: arg.holder(), ttlMs: arg.lease() }, lease: 'ttlMs', answer: LIVE_ANSWER },
  },
  model: {
    init: model.init,
    step: model.step,
    leases: (state) => state.holders.map((h) => h.tag),
    expire: model.expire,
    matches: model.outputMatches,
    hash: model.hashState,
    describe: model.describeState,
    describeInput: model.describeInput,
    describeOutput: model.describeOutput,
  },
  invariants: {
    'at-most-limit': { witnesses: ['acquire'] },
    'no-stale-refresh': { witnesses: ['refresh'] },
    // Named by the post-run TTL probe (noTtl), never by a stuck point.
    'key-has-ttl': { witnesses: ['acquire', 'refresh', 'release'] },
  },
  classify: classifySemaphore,
  classifyPriority: ['at-most-limit', 'no-stale-refresh'],
  noTtl: { invariant: 'key-has-ttl', consequence: 'keeps its holders set forever' },
  key: redisKey,
  session: semaphoreSession,
  races: semaphoreRaces,
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
        counts:
          'a live holder that acquires again is counted: on a full set, itself included, it is refused (0) and not renewed',
      },
    },
  },
  search: { requires: model.requires, grants: model.grants, holdsIdentity: model.holdsIdentity },
  coverage: {
    transitions: [
      'free → held by acquire',
      'held → held by acquire',
      'held → held by refresh',
      'held → free by release',
      'held → held by release',
      'held → free by expiry',
      'held → held by expiry',
    ],
    required: [
      { transition: 'free → held by acquire', needs: ['acquire'] },
      { transition: 'held → held by acquire', needs: ['acquire'] },
      { transition: 'held → held by refresh', needs: ['acquire', 'refresh'] },
      { transition: 'held → free by release', needs: ['acquire', 'release'] },
      { transition: 'held → free by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['acquire'] },
    ],
  },
  reference: {
    async open(redis, { scriptsDir, mode, namespace, quitOnClose }) {
      const client = await SemaphoreClient.open(redis, { scriptsDir, mode });
      return new SemaphoreSubject(
        client,
        redis,
        `lua:${scriptsDir} (reference semaphore client, ${mode})`,
        (key) => redisKey(namespace, key),
        quitOnClose,
      );
    },
  },
});

export const semaphore = compilePattern(spec) as Pattern<
  SemaphoreState,
  SemaphoreInput,
  SemaphoreOutput,
  SemaphoreSubject
>;
