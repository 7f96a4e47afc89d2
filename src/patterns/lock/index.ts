/**
 * The compare-and-delete lock (lua/lock): acquire with a token and a TTL; only the holder releases or
 * extends. Declared with the pattern API a team uses (definePattern): the core (operations, the model,
 * its invariants) and the opt-in groups a built-in needs beyond it: its own sessions and races, the
 * answers lock libraries give (levels, holder handles, Redlock's give-back), the search's holder
 * lookahead, its reference client and its Redlock client across independent masters.
 */
import { arg, compilePattern, definePattern, type Pattern } from '../../pattern.ts';
import { LockClient } from './client.ts';
import { classifyLock } from './invariants.ts';
import { lockLevels } from './levels.ts';
import { lock as model, type LockInput, type LockOutput, type LockState } from './model.ts';
import { lockRaces } from './races.ts';
import { lockSession } from './sessions.ts';
import { LockSubject } from './subject.ts';
import { RedlockSubject } from './redlock-subject.ts';

const redisKey = (namespace: string, logicalKey: string) => `lock:{${namespace}:${logicalKey}}`;
const MATCH_ANSWER = 'nil absent | -1 another token | 1 done';

const spec = definePattern<LockState, LockInput, LockOutput>({
  name: 'lock',
  operations: {
    acquire: { args: { token: arg.holder(), ttlMs: arg.lease() }, lease: 'ttlMs', answer: '1 acquired | 0 held' },
    release: { args: { token: arg.holder() }, script: 'remove_if_matches', answer: MATCH_ANSWER },
    extend: {
      args: { token: arg.holder(), ttlMs: arg.lease() },
      lease: 'ttlMs',
      script: 'extend_if_matches',
      answer: MATCH_ANSWER,
    },
  },
  model: {
    init: model.init,
    step: model.step,
    leases: (state) => (state.kind === 'held' ? [state.tag] : []),
    expire: model.expire,
    matches: model.outputMatches,
    hash: model.hashState,
    describe: model.describeState,
    describeInput: model.describeInput,
    describeOutput: model.describeOutput,
  },
  invariants: { 'one-holder': { witnesses: ['acquire'] }, 'no-stale-release': { witnesses: ['release', 'extend'] } },
  classify: classifyLock,
  key: redisKey,
  session: lockSession,
  races: lockRaces,
  levels: lockLevels,
  holder: { arg: 'token', handedOutBy: ['acquire'] },
  // Redlock's validity rule: an acquire that took longer than its validity deletes its own value.
  givesBack: { acquire: { op: 'release', args: ['token'] } },
  search: {
    requires: model.requires,
    grants: model.grants,
    holdsIdentity: model.holdsIdentity,
    holderOf: model.holderOf,
    requiresVacant: model.requiresVacant,
    mayEnd: model.mayEnd,
    excludes: model.excludes,
    answerLeaves: model.answerLeaves,
  },
  coverage: {
    transitions: [
      'absent → held by acquire',
      'held → absent by release',
      'held → absent by expiry',
      'held → held by extend',
    ],
    required: [
      { transition: 'absent → held by acquire', needs: ['acquire'] },
      { transition: 'held → absent by release', needs: ['acquire', 'release'] },
      { transition: 'held → held by extend', needs: ['acquire', 'extend'] },
      { transition: 'held → absent by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['acquire'] },
    ],
  },
  reference: {
    async open(redis, { scriptsDir, mode, namespace, quitOnClose }) {
      const client = await LockClient.open(redis, { scriptsDir, mode });
      return new LockSubject(
        client,
        redis,
        `lua:${scriptsDir} (reference lock client, ${mode})`,
        (key) => redisKey(namespace, key),
        quitOnClose,
      );
    },
  },
  // Redlock across independent masters: the same scripts on each, by EVALSHA (Functions would be a
  // library to load on every master, which this client does not do).
  async masters(masters, { scriptsDir, mode, namespace, quitOnClose }) {
    if (mode !== 'evalsha') throw new RangeError(`the Redlock client calls its scripts with EVALSHA, not ${mode}`);
    const name = `lua:${scriptsDir} (reference Redlock client, ${masters.length} masters)`;
    return RedlockSubject.open(masters, { scriptsDir, name, keyOf: (key) => redisKey(namespace, key), quitOnClose });
  },
});

export const lock = compilePattern(spec) as Pattern<LockState, LockInput, LockOutput, LockSubject>;
