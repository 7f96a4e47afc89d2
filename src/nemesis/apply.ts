import type { FaultStep } from '../plan/schedule.ts';
import { describeFault } from '../plan/schedule.ts';
import type { Applied, FaultDescriptor, NemesisContext } from '../faults/index.ts';

/** The fault applied; if applying it failed, a record that says so and assumes the worst its descriptor allows. */
export async function applyOrSayWhy(
  descriptor: FaultDescriptor,
  fault: FaultStep,
  ctx: NemesisContext,
): Promise<Applied | undefined> {
  try {
    return await descriptor.apply!(fault, ctx);
  } catch (error) {
    return {
      kind: descriptor.recordedAs!,
      target: '?',
      lossy: descriptor.lossy?.(fault) ?? false,
      cutsConnections: descriptor.cutsConnections?.(fault) ?? true,
      detail: `${describeFault(fault)} failed: ${(error as Error).message}`,
    };
  }
}
