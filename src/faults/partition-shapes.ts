import type { Grudge } from '../cluster/netns/partitions.ts';
import type { Topology } from '../cluster/types.ts';
import type { PartitionStep } from '../plan/schedule.ts';

/** A partition as Jepsen writes it: the components, and each node's grudge (whom it drops). */
export interface PartitionPlan {
  readonly components: readonly (readonly number[])[];
  /** Nodes that see every side (the bridge), not in any component. */
  readonly bridges: readonly number[];
  readonly grudge: Grudge;
}

/**
 * The nodes of `topology` split in `shape` around `master` (the master of the fault's key), with
 * `seed` choosing whatever the shape leaves open. Pure, so a schedule's partition is the same on
 * every replay of the same topology.
 */
export function partitionPlan(
  shape: PartitionStep['shape'],
  topology: Topology,
  master: number,
  seed: number,
): PartitionPlan {
  const all = topology.nodes.map((n) => n.node.index);
  const masters = topology.nodes.filter((n) => n.role === 'master' && n.slots.length > 0).map((n) => n.node.index);
  const random = mulberry32(seed);
  const others = shuffle(
    all.filter((i) => i !== master),
    random,
  );
  switch (shape) {
    case 'one':
      return complete([[master], others]);
    case 'majority': {
      // A minority (half the nodes, rounded down) holding the master, filled with non-masters first,
      // so the master is in a minority of masters and the majority can replace it.
      const size = Math.floor(all.length / 2);
      const company = [
        ...others.filter((i) => !masters.includes(i)),
        ...others.filter((i) => masters.includes(i)),
      ].slice(0, size - 1);
      return complete([[master, ...company], all.filter((i) => i !== master && !company.includes(i))]);
    }
    case 'bridge': {
      // Jepsen's bridge: two halves, the first node of the second half in both.
      const half = Math.floor(all.length / 2);
      const a = [master, ...others.slice(0, half - 1)];
      const [bridge, ...b] = others.slice(half - 1);
      const plan = complete([a, b]);
      return { ...plan, bridges: [bridge] };
    }
    case 'primaries':
      return complete([...masters.map((m) => [m]), all.filter((i) => !masters.includes(i))]);
  }
}

/** Every node drops every node outside its own component. */
function complete(components: (readonly number[])[]): PartitionPlan {
  const nonEmpty = components.filter((c) => c.length > 0);
  const grudge = new Map<number, number[]>();
  for (const component of nonEmpty) {
    const outside = nonEmpty.filter((c) => c !== component).flat();
    for (const node of component)
      grudge.set(
        node,
        [...outside].sort((x, y) => x - y),
      );
  }
  return { components: nonEmpty.map((c) => [...c].sort((x, y) => x - y)), bridges: [], grudge };
}

/**
 * The nodes a partition fails, for `lost-acknowledged-write`: every node outside its largest side (a
 * bridge node counts with every side). Partition-one fails 1 node; majority, half of them.
 */
export function cutOffNodes(plan: PartitionPlan, nodes: number): number {
  const largest = Math.max(0, ...plan.components.map((c) => c.length + plan.bridges.length));
  return nodes - largest;
}

export function describePlan(plan: PartitionPlan): string {
  const sides = plan.components.map((c) => c.map((i) => `n${i}`).join(',')).join(' | ');
  return plan.bridges.length ? `${sides} (bridged by ${plan.bridges.map((i) => `n${i}`).join(',')})` : sides;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A small seeded generator: the schedule's seed decides the partition, not Math.random. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
