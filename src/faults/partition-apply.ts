import type { Topology } from '../cluster/types.ts';
import type { PartitionStep } from '../plan/schedule.ts';
import { describeFault } from '../plan/schedule.ts';
import { sleep } from '../history/clock.ts';
import type { Applied, NemesisContext } from './types.ts';
import { cutOffNodes, describePlan, partitionPlan } from './partition-shapes.ts';
import { resolveTarget } from './target.ts';

/**
 * Cut the nodes apart for `ms`, then heal here (not only in the nemesis's heal after it), so that a
 * promotion the majority decided during the partition has happened before the topology is compared:
 * the partition is lossy exactly when some shard changed master, the only way a write a master
 * acknowledged can vanish (its branch is discarded when it rejoins as a replica).
 */
export async function applyPartition(fault: PartitionStep, ctx: NemesisContext): Promise<Applied> {
  const { cluster } = ctx;
  const detail = describeFault(fault);
  if (!cluster.partitions)
    throw new Error(`partition faults need the netns backend; this is a ${cluster.kind} cluster`);
  const master = await resolveTarget(cluster, ctx.slotOf(fault.key), 'master');
  if (!master) return { kind: 'partition', target: 'none', lossy: false, detail: `${detail}: no master` };
  const before = await cluster.topology();
  const plan = partitionPlan(fault.shape, before, master.node, fault.seed);
  await cluster.partitions.cut(plan.grudge);
  await sleep(fault.ms);
  await cluster.heal();
  const changed = mastersChanged(before, await cluster.topology());
  // Conservative on connections too: an old master turned replica may drop its clients mid-command.
  return {
    kind: 'partition',
    target: describePlan(plan),
    lossy: changed.length > 0,
    cutsConnections: changed.length > 0,
    failedNodes: cutOffNodes(plan, before.nodes.length),
    detail: changed.length ? `${detail}; ${changed.join(', ')}` : detail,
  };
}

/** "slots 10922-16383: n2 -> n5" for every slot range whose master differs. */
function mastersChanged(before: Topology, after: Topology): string[] {
  const owners = (t: Topology) =>
    new Map(
      t.nodes
        .filter((n) => n.role === 'master')
        .flatMap((n) => n.slots.map(([a, b]) => [`${a}-${b}`, n.node.name] as const)),
    );
  const was = owners(before);
  const now = owners(after);
  return [...was]
    .filter(([range, owner]) => now.get(range) !== owner)
    .map(([range, owner]) => `slots ${range}: ${owner} -> ${now.get(range) ?? '?'}`);
}
