/**
 * The counting semaphore (lua/semaphore/*.lua) as a map of keys to holders with deadlines on the
 * server's clock: every call first drops holders whose deadline is at or before now; acquire holds
 * (1) a live holder again or a new one while fewer than `limit` are live, else 0; refresh gives a
 * live holder a new deadline (1) or answers 0; release removes a live holder (1) or answers 0.
 * An acquire saying `reacquire: 'counts'` (the variant a library like redis-semaphore declares)
 * counts first, its own place included: a live holder on a full set is refused and keeps its deadline.
 */
import type { OpRecord } from '../../../../src/history/types.ts';
import type { Store } from './simulate.ts';

export type SemInput =
  | {
      readonly op: 'acquire';
      readonly token: string;
      readonly limit: number;
      readonly ttlMs: number;
      readonly reacquire?: 'counts';
    }
  | { readonly op: 'release'; readonly token: string }
  | { readonly op: 'refresh'; readonly token: string; readonly ttlMs: number };

export function semaphoreStore(): Store<SemInput> {
  const keys = new Map<string, Map<string, number>>();
  return {
    apply(key, input, now) {
      const holders = keys.get(key) ?? new Map<string, number>();
      keys.set(key, holders);
      for (const [token, deadline] of holders) if (deadline <= now) holders.delete(token);
      switch (input.op) {
        case 'acquire':
          if (
            input.reacquire === 'counts'
              ? holders.size >= input.limit
              : !holders.has(input.token) && holders.size >= input.limit
          )
            return 0;
          holders.set(input.token, now + input.ttlMs);
          return 1;
        case 'refresh':
          if (!holders.has(input.token)) return 0;
          holders.set(input.token, now + input.ttlMs);
          return 1;
        case 'release':
          return holders.delete(input.token) ? 1 : 0;
      }
    },
  };
}

/** A release answered 1 for a token no acquire ever held: only an acquire makes a holder. */
export function corruptSemaphore(op: OpRecord<SemInput, unknown>): OpRecord<SemInput, unknown> {
  return { ...op, input: { op: 'release', token: 'a token nobody acquired' }, output: 1 };
}
