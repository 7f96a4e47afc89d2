import type { FaultStep } from '../plan/schedule.ts';
import { sleep } from '../history/clock.ts';
import { faultOf, type NemesisContext } from '../faults/index.ts';
import { applyOrSayWhy } from './apply.ts';
import { RunNames } from './command-names.ts';

/**
 * Command faults one at a time, on a lane of their own beside the cluster faults: they touch no
 * cluster state, so there is nothing to heal, and every rule is disarmed before the next. The lane
 * keeps the command names the links carried, for its faults to pick from.
 */
export async function runCommandLane(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  if (faults.length === 0) return;
  const names = ctx.cluster.commands ? new RunNames(ctx.cluster.commands) : undefined;
  try {
    await lane(faults, names ? { ...ctx, commandNames: names } : ctx);
  } finally {
    names?.learn();
  }
}

async function lane(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  const { clock } = ctx.recorder;
  for (const fault of faults) {
    const wait = fault.atMs - clock.now();
    if (wait > 0) await sleep(wait);
    const startedAt = clock.now();
    // Conservative if it failed: a fault that failed half-way may have cut a connection (its descriptor says whether).
    const applied = await applyOrSayWhy(faultOf(fault), fault, ctx);
    if (applied) ctx.recorder.fault({ ...applied, startedAt, endedAt: clock.now() });
  }
}

/**
 * Faults aimed at operations of the schedule, all at once: each waits for its operation, so their
 * order is the clients'. A fault's record starts when its operation was invoked (Applied.startedAt).
 */
export async function runAimedFaults(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  const { clock } = ctx.recorder;
  await Promise.all(
    faults.map(async (fault) => {
      const applied = await applyOrSayWhy(faultOf(fault), fault, ctx);
      if (applied)
        ctx.recorder.fault({ ...applied, startedAt: applied.startedAt ?? clock.now(), endedAt: clock.now() });
    }),
  );
}
