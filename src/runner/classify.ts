import type { Outcome } from '../history/types.ts';
import { RefusedError } from '../plan/refusal.ts';

/**
 * Errors Redis returns before a command runs: the operation certainly took no effect.
 * Anything else (timeouts, dropped connections, errors we do not know) is indeterminate: the
 * command may have run, or may still run when ioredis resends it after a reconnect.
 */
const NOT_EXECUTED = [
  /^NOSCRIPT/,
  /^CROSSSLOT/,
  /^CLUSTERDOWN/,
  /^TRYAGAIN/,
  /^MOVED/,
  /^ASK /,
  /^LOADING/,
  /^MASTERDOWN/,
  /^READONLY/,
  /^BUSY /,
  /^OOM /,
  /^ERR Error compiling script/,
];

// Not here: ioredis's "Too many Cluster redirections". Its limit also counts retries after
// "Connection is closed", and an attempt cut off that way may already have run.

export function classifyError(error: unknown): Exclude<Outcome, 'ok'> {
  // The implementation's own word that it sent nothing (src/plan/refusal.ts).
  if (error instanceof RefusedError) return 'fail';
  const message = error instanceof Error ? error.message : String(error);
  return NOT_EXECUTED.some((re) => re.test(message)) ? 'fail' : 'info';
}
