import type { FaultStep } from '../plan/schedule.ts';
import { sleep } from '../history/clock.ts';
import { faultOf, type Applied, type FaultDescriptor, type NemesisContext } from '../faults/index.ts';
import { applyOrSayWhy } from './apply.ts';
import { runAimedFaults, runCommandLane } from './command-faults.ts';
import { isAimedDelay } from '../plan/schedule.ts';

export type { NemesisContext } from '../faults/index.ts';

/**
 * The schedule's faults on two lanes, as their descriptors place them: cluster faults, and command
 * faults on the client links (which change nothing in the cluster and need no heal). Never judges anything.
 */
export async function runNemesis(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  const onLane = (lane: FaultDescriptor['draw']['lane']) =>
    faults.filter((f) => faultOf(f).draw.lane === lane && !isAimedDelay(f));
  await Promise.all([
    runClusterLane(onLane('cluster'), ctx),
    runCommandLane(onLane('command'), ctx),
    runAimedFaults(faults.filter(isAimedDelay), ctx),
  ]);
}

/**
 * Cluster faults one at a time, each followed by its heal, so every fault has a bounded window in
 * the history and the next starts from a ready cluster.
 */
async function runClusterLane(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  const { clock } = ctx.recorder;
  for (const fault of faults) {
    const wait = fault.atMs - clock.now();
    if (wait > 0) await sleep(wait);
    const startedAt = clock.now();
    const descriptor = faultOf(fault);
    const epoch = await ctx.cluster.failoverEpoch?.();
    const applied = await applyOrSayWhy(descriptor, fault, ctx);
    await descriptor.heal?.(ctx);
    if (applied)
      ctx.recorder.fault({
        ...withFailover(applied, epoch, await ctx.cluster.failoverEpoch?.()),
        startedAt,
        endedAt: clock.now(),
      });
    ctx.recorder.topologyChanged(String(await ctx.cluster.topology()));
  }
}

/**
 * Where something outside the harness fails the primary over (Sentinel), any fault across which it
 * did (a freeze, a kill, a cut link, a toxic, or SENTINEL FAILOVER itself) may have lost writes the old
 * primary acknowledged: no handshake holds them back. Its record says so, and the checker's
 * replication-loss re-check then takes it into account, as it does a forced cluster failover.
 */
function withFailover(applied: Applied, before: number | undefined, after: number | undefined): Applied {
  if (before === undefined || after === undefined || after <= before) return applied;
  const moves = after - before;
  return {
    ...applied,
    lossy: true,
    detail: `${applied.detail}; Sentinel failed the primary over${moves > 1 ? ` ${moves} times` : ''}`,
  };
}
