/**
 * The idempotency store (lua/idempotency/*.lua), as a map of keys to records: a
 * register on a missing key creates a pending record with a lease and answers fresh, on any other
 * answers hit with the record's fields ('' for a field not set); complete, by the stored owner
 * (any state), stores the response and a TTL; release and renew act only for the stored owner of
 * a pending record. PEXPIRE with a time of 0 or less deletes the key.
 */
import type { OpRecord } from '../../../../src/history/types.ts';
import { live, type Store } from './simulate.ts';

export type IdemInput =
  | { readonly op: 'register'; readonly fingerprint: string; readonly owner: string; readonly leaseMs: number }
  | {
      readonly op: 'complete';
      readonly owner: string;
      readonly status: string;
      readonly body: string;
      readonly ttlMs: number;
    }
  | { readonly op: 'release'; readonly owner: string }
  | { readonly op: 'renew'; readonly owner: string; readonly leaseMs: number };

interface Record {
  state: 'pending' | 'completed';
  fingerprint: string;
  owner: string;
  status?: string;
  body?: string;
  deadline: number;
}

export function idempotencyStore(): Store<IdemInput> {
  const keys = new Map<string, Record>();
  const expireIn = (key: string, record: Record, ms: number, now: number) => {
    if (ms <= 0) keys.delete(key);
    else record.deadline = now + ms;
  };
  return {
    apply(key, input, now) {
      const found = keys.get(key);
      const record = live(found, now) ? found : undefined;
      if (record === undefined) keys.delete(key);
      switch (input.op) {
        case 'register': {
          if (record) return ['hit', record.state, record.fingerprint, record.status ?? '', record.body ?? ''];
          const created: Record = {
            state: 'pending',
            fingerprint: input.fingerprint,
            owner: input.owner,
            deadline: Infinity,
          };
          keys.set(key, created);
          expireIn(key, created, input.leaseMs, now);
          return ['fresh'];
        }
        case 'complete':
          if (!record || record.owner !== input.owner) return 0;
          Object.assign(record, { state: 'completed', status: input.status, body: input.body });
          expireIn(key, record, input.ttlMs, now);
          return 1;
        case 'release':
          if (!record || record.owner !== input.owner || record.state !== 'pending') return 0;
          keys.delete(key);
          return 1;
        case 'renew':
          if (!record || record.owner !== input.owner || record.state !== 'pending') return 0;
          expireIn(key, record, input.leaseMs, now);
          return 1;
      }
    },
  };
}

/**
 * A corruption no order can explain, whichever ok operation is picked: a register answered with a
 * completed record holding a body no complete ever stored; a complete, renew or release answered 1
 * for an owner no register ever stored (only a register stores an owner, and these act only for it).
 */
export function corruptIdempotency(op: OpRecord<IdemInput, unknown>): OpRecord<IdemInput, unknown> {
  if (op.input.op === 'register')
    return { ...op, output: ['hit', 'completed', op.input.fingerprint, '200', 'a body nobody stored'] };
  return { ...op, input: { ...op.input, owner: 'an owner nobody registered' }, output: 1 };
}
