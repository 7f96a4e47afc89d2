/** The idempotency-key store (lua/idempotency): register, then complete, release or renew under a lease. */
import { withLevels, type Pattern, leaseSettings, ttlSettings } from '../../pattern.ts';
import { IDEMPOTENCY_SCRIPTS } from './calls.ts';
import { IdempotencyStore } from './client.ts';
import { classifyIdempotency } from './invariants.ts';
import { scopedKey } from './keys.ts';
import { idempotencyLevels } from './levels.ts';
import { idempotency as model, type IdempotencyInput, type IdempotencyOutput, type IdempotencyState } from './model.ts';
import { idempotencySession } from './sessions.ts';
import { IdempotencySubject } from './subject.ts';
import { idempotencyRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => scopedKey(namespace, 'certify', logicalKey);

export const idempotency = {
  name: 'idempotency',
  operations: {
    register: { args: { fingerprint: 'string', owner: 'string', leaseMs: 'integer>=1' }, method: 'registerOrGet', answer: "['fresh'] | ['hit', state, fingerprint, status, body]" },
    complete: { args: { owner: 'string', status: 'string', body: 'string', ttlMs: 'integer>=1' }, method: 'complete', answer: '1 stored | 0 not the pending owner' },
    release: { args: { owner: 'string' }, method: 'release', answer: '1 released | 0 not the pending owner' },
    renew: { args: { owner: 'string', leaseMs: 'integer>=1' }, method: 'renew', answer: '1 renewed | 0 not the pending owner' },
  },
  model: withLevels(model, idempotencyLevels),
  levels: idempotencyLevels,
  settings: { ...leaseSettings, ...ttlSettings },
  session: idempotencySession,
  races: idempotencyRaces,
  invariants: ['one-winner', 'no-stale-overwrite', 'no-resurrection', 'model-conformance'],
  witnesses: { 'one-winner': ['register'], 'no-stale-overwrite': ['complete', 'release', 'renew'], 'no-resurrection': ['register', 'release', 'renew'] },
  classify: classifyIdempotency,
  classifyPriority: ['one-winner', 'no-stale-overwrite', 'no-resurrection'],
  noTtl: { invariant: 'model-conformance', consequence: 'holds its state forever' },
  transitions: [
    'absent → pending by register',
    'pending → completed by complete',
    'pending → absent by release',
    'pending → absent by expiry',
    'pending → pending by renew',
    'completed → absent by expiry',
  ],
  // "completed → absent by expiry" and "pending → absent by release" are too rare for the default
  // budget to witness every time (certify/evidence.ts says why); coverage.json still shows them.
  requiredTransitions: [
    { transition: 'absent → pending by register', needs: ['register'] },
    { transition: 'pending → completed by complete', needs: ['register', 'complete'] },
    { transition: 'pending → pending by renew', needs: ['register', 'renew'] },
    { transition: 'pending → absent by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['register'] },
  ],
  // The resent register finds its own attempt's pending record (same owner): the caller learns the
  // key is in progress, by itself. No second effect a user sees, so counted, not a finding.
  duplicates: {
    register: { consequence: 'a register resent by the same attempt found that attempt\'s own pending record' },
  },
  scripts: IDEMPOTENCY_SCRIPTS,
  redisKey,
  async openReference(redis, { scriptsDir, mode, namespace, quitOnClose }) {
    const store = await IdempotencyStore.open(redis, { scriptsDir, mode });
    return new IdempotencySubject(store, `lua:${scriptsDir} (reference idempotency client, ${mode})`, (key) => redisKey(namespace, key), quitOnClose);
  },
} as const satisfies Pattern<IdempotencyState, IdempotencyInput, IdempotencyOutput, IdempotencySubject>;
