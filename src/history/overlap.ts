import type { FaultRecord } from './types.ts';

/** Was the fault active at some instant of [from, to]? Every "did this fault touch that op" question. */
export function overlaps(fault: Pick<FaultRecord, 'startedAt' | 'endedAt'>, from: number, to: number): boolean {
  return fault.startedAt <= to && fault.endedAt >= from;
}
