import type { Durability } from '../plan/durability.ts';
import { DURABILITY_PROBLEM, durabilityInLimits } from '../certify/options.ts';
import { UsageError } from './exit-codes.ts';

/** `--durability wait:N:TIMEOUT`, parsed once, or a UsageError naming the flag. Absent: no WAIT. */
export function durabilityFlag(command: string, value: string | undefined): Durability | undefined {
  if (value === undefined) return undefined;
  const match = /^wait:(\d+):(\d+)$/.exec(value);
  const replicas = match ? Number(match[1]) : NaN;
  const timeoutMs = match ? Number(match[2]) : NaN;
  // The limits and their words are the job options' (src/certify/options.ts).
  if (!match || !durabilityInLimits({ replicas, timeoutMs }))
    throw new UsageError(`${command}: --durability ${DURABILITY_PROBLEM}, got '${value}'`);
  return { replicas, timeoutMs };
}
