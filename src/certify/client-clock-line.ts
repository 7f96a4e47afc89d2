import { CLOCK_SKEW, CLOCK_STEP } from '../faults/client-clock.ts';
import type { JobOptions, JobResult } from './types.ts';

/**
 * The client clock assumption a certificate was earned under, in one line: the offsets drawn (from
 * the job's client-clock settings) and how far the door reached into the implementation's own reads
 * of the clock. Undefined when client-clock was not in the fault set: then every client read the true clock.
 */
export function clientClockLine(
  options: Pick<JobOptions, 'faults' | 'faultSettings'>,
  result: Pick<JobResult, 'clientClockReach'>,
): string | undefined {
  if (!options.faults.includes('client-clock')) return undefined;
  const skew = options.faultSettings?.[CLOCK_SKEW] ?? 0;
  const step = options.faultSettings?.[CLOCK_STEP] ?? 0;
  const drawn = `each client's clock offset within ±${skew} ms${step ? `, one client stepped ±${step} ms in a third of the runs` : ''}`;
  return `${drawn}; ${result.clientClockReach ?? 'reach unknown: the implementation did not say how its clock is read'}`;
}

/** The certificate's `clientClocks` field, when client-clock was in the set. */
export function clientClockField(
  options: Pick<JobOptions, 'faults' | 'faultSettings'>,
  result: Pick<JobResult, 'clientClockReach'>,
): { clientClocks?: string } {
  const line = clientClockLine(options, result);
  return line === undefined ? {} : { clientClocks: line };
}
