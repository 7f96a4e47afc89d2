import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/** Exponential backoff, 50 ms doubling: a failed register is tried 4 more times over 750 ms, */
const RETRIES = 4;
/** and not once its first try is 2 s old: a caller waits a bounded time (without this deadline a
 *  register slowed by a fault five times over outlasted the harness's 12 s hang bound, and the
 *  mutant was rejected as a hang before its slip showed). */
const DEADLINE_MS = 2_000;

/**
 * MUTANT (slip): the reference scripts, with a retry around register_or_get for timeouts and
 * dropped connections. Knowing that a resent register can find its own pending record, the team
 * treats "pending, with my fingerprint" after a retry as its own registration and reports fresh.
 * But the fingerprint names the request body, not the attempt: a concurrent attempt with the same
 * body also matches, and both run the handler. Shows only when a fault makes a register fail.
 */
export function createStore(redis: Cluster) {
  const register = referenceCommand(redis, 'idempotency', 'register_or_get');
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const release = referenceCommand(redis, 'idempotency', 'release');
  const renew = referenceCommand(redis, 'idempotency', 'renew');
  return {
    async registerOrGet(key: string, fingerprint: string, owner: string, leaseMs: number) {
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        try {
          const reply = (await register(key, fingerprint, owner, leaseMs)) as string[];
          const mine = attempt > 0 && reply[0] === 'hit' && reply[1] === 'pending' && reply[2] === fingerprint;
          return mine ? ['fresh'] : reply;
        } catch (error) {
          if (attempt >= RETRIES || Date.now() - started > DEADLINE_MS) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    },
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      complete(key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => release(key, owner),
    renew: (key: string, owner: string, leaseMs: number) => renew(key, owner, leaseMs),
  };
}
