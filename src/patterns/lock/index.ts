/** The compare-and-delete lock (lua/lock): acquire with a token and a TTL; only the holder releases or extends. */
import { withLevels, type Pattern, leaseSettings } from '../../pattern.ts';
import { LOCK_SCRIPTS, LockClient } from './client.ts';
import { classifyLock } from './invariants.ts';
import { lockLevels } from './levels.ts';
import { lock as model, type LockInput, type LockOutput, type LockState } from './model.ts';
import { lockRaces } from './races.ts';
import { lockSession } from './sessions.ts';
import { LockSubject } from './subject.ts';
import { RedlockSubject } from './redlock-subject.ts';

const redisKey = (namespace: string, logicalKey: string) => `lock:{${namespace}:${logicalKey}}`;
const MATCH_ANSWER = 'nil absent | -1 another token | 1 done';

export const lock = {
  name: 'lock',
  operations: {
    acquire: { args: { token: 'string', ttlMs: 'integer>=1' }, method: 'acquire', answer: '1 acquired | 0 held' },
    release: { args: { token: 'string' }, method: 'release', answer: MATCH_ANSWER },
    extend: { args: { token: 'string', ttlMs: 'integer>=1' }, method: 'extend', answer: MATCH_ANSWER },
  },
  model: withLevels(model, lockLevels),
  levels: lockLevels,
  holder: { arg: 'token', handedOutBy: ['acquire'] },
  // Redlock's validity rule: an acquire that took longer than its validity deletes its own value.
  givesBack: { acquire: { op: 'release', args: ['token'] } },
  settings: { ...leaseSettings },
  session: lockSession,
  races: lockRaces,
  invariants: ['one-holder', 'no-stale-release', 'model-conformance'],
  witnesses: { 'one-holder': ['acquire'], 'no-stale-release': ['release', 'extend'] },
  classify: classifyLock,
  classifyPriority: ['one-holder', 'no-stale-release'],
  noTtl: { invariant: 'model-conformance', consequence: 'holds its state forever' },
  transitions: ['absent → held by acquire', 'held → absent by release', 'held → absent by expiry', 'held → held by extend'],
  requiredTransitions: [
    { transition: 'absent → held by acquire', needs: ['acquire'] },
    { transition: 'held → absent by release', needs: ['acquire', 'release'] },
    { transition: 'held → held by extend', needs: ['acquire', 'extend'] },
    { transition: 'held → absent by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['acquire'] },
  ],
  scripts: LOCK_SCRIPTS,
  redisKey,
  async openReference(redis, { scriptsDir, mode, namespace, quitOnClose }) {
    const client = await LockClient.open(redis, { scriptsDir, mode });
    return new LockSubject(client, redis, `lua:${scriptsDir} (reference lock client, ${mode})`, (key) => redisKey(namespace, key), quitOnClose);
  },
  // Redlock across independent masters: the same scripts on each, by EVALSHA (Functions would be a
  // library to load on every master, which this client does not do).
  async openOnMasters(masters, { scriptsDir, mode, namespace, quitOnClose }) {
    if (mode !== 'evalsha') throw new RangeError(`the Redlock client calls its scripts with EVALSHA, not ${mode}`);
    const name = `lua:${scriptsDir} (reference Redlock client, ${masters.length} masters)`;
    return RedlockSubject.open(masters, { scriptsDir, name, keyOf: (key) => redisKey(namespace, key), quitOnClose });
  },
} as const satisfies Pattern<LockState, LockInput, LockOutput, LockSubject>;
