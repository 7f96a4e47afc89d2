import type { Durability } from '../plan/durability.ts';
import { UsageError } from './exit-codes.ts';

/** Replicas beyond any cluster's (Redis counts at most its connected replicas). */
const MAX_REPLICAS = 16;
/** WAIT blocks the operation: longer than the runner's 10 s bound on one operation would only make it indeterminate. */
const MAX_TIMEOUT_MS = 10_000;

/** `--durability wait:N:TIMEOUT`, parsed once, or a UsageError naming the flag. Absent: no WAIT. */
export function durabilityFlag(command: string, value: string | undefined): Durability | undefined {
  if (value === undefined) return undefined;
  const match = /^wait:(\d+):(\d+)$/.exec(value);
  const replicas = match ? Number(match[1]) : NaN;
  const timeoutMs = match ? Number(match[2]) : NaN;
  if (!match || replicas < 1 || replicas > MAX_REPLICAS || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new UsageError(
      `${command}: --durability must be wait:N:TIMEOUT (N replicas in [1, ${MAX_REPLICAS}], TIMEOUT ms in [1, ${MAX_TIMEOUT_MS}]; WAIT 0 would block forever), got '${value}'`,
    );
  }
  return { replicas, timeoutMs };
}
