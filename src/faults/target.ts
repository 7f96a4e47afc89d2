import type { Cluster, Topology } from '../cluster/types.ts';
import type { FaultTarget } from '../plan/schedule.ts';

/** The node that plays `role` for the shard serving `slot` right now, or undefined. */
export function nodeFor(topology: Topology, slot: number, role: FaultTarget['role']): number | undefined {
  const master = topology.nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => a <= slot && slot <= b));
  if (!master) return undefined;
  if (role === 'master') return master.node.index;
  return topology.nodes.find((n) => n.role === 'replica' && n.masterIndex === master.node.index)?.node.index;
}

export async function resolveTarget(
  cluster: Cluster,
  slot: number,
  role: FaultTarget['role'],
): Promise<{ node: number; label: string } | undefined> {
  const node = nodeFor(await cluster.topology(), slot, role);
  return node === undefined ? undefined : { node, label: `${cluster.nodes[node].name} (${role} of slot ${slot})` };
}
