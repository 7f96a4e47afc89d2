/**
 * The compare-and-delete lock (lua/lock/*.lua) as a map of keys to (token, deadline):
 * acquire is SET NX PX (1, or 0 when held by anyone); release deletes for the stored token (1),
 * else -1 (another token) or nil (absent); extend is the same with PEXPIRE, which deletes the key
 * when given 0 ms.
 */
import type { OpRecord } from '../../../../src/history/types.ts';
import { live, type Store } from './simulate.ts';

export type LockOpInput =
  | { readonly op: 'acquire'; readonly token: string; readonly ttlMs: number }
  | { readonly op: 'release'; readonly token: string }
  | { readonly op: 'extend'; readonly token: string; readonly ttlMs: number };

export function lockStore(): Store<LockOpInput> {
  const keys = new Map<string, { token: string; deadline: number }>();
  return {
    apply(key, input, now) {
      const found = keys.get(key);
      const held = live(found, now) ? found : undefined;
      if (held === undefined) keys.delete(key);
      if (input.op === 'acquire') {
        if (held) return 0;
        keys.set(key, { token: input.token, deadline: now + input.ttlMs });
        return 1;
      }
      if (!held) return null;
      if (held.token !== input.token) return -1;
      if (input.op === 'release' || input.ttlMs <= 0) keys.delete(key);
      else held.deadline = now + input.ttlMs;
      return 1;
    },
  };
}

/** A release answered 1 (deleted) for a token no acquire ever stored: only an acquire stores a token. */
export function corruptLock(op: OpRecord<LockOpInput, unknown>): OpRecord<LockOpInput, unknown> {
  return { ...op, input: { op: 'release', token: 'a token nobody acquired' }, output: 1 };
}
