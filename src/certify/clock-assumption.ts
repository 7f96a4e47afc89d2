import { FAULT_DESCRIPTORS } from '../faults/index.ts';

/** What a certificate says when no fault moved a clock: it holds only where clocks agree. */
export const TRUE_CLOCKS =
  'every clock true: no clock fault ran, so leases, TTLs and windows were judged as if all clocks agreed';

/**
 * The clock assumption a job's certificate is earned under, one line per clock fault in its set (the
 * bounds its descriptor draws within), or TRUE_CLOCKS. A certificate names it as it names the server.
 */
export function clockAssumptions(faults: readonly string[], settings: Readonly<Record<string, number>> = {}): string[] {
  const lines = FAULT_DESCRIPTORS.filter((f) => f.clockAssumption !== undefined && faults.includes(f.name)).map((f) =>
    typeof f.clockAssumption === 'function' ? f.clockAssumption(settings) : f.clockAssumption!,
  );
  return lines.length ? lines : [TRUE_CLOCKS];
}
