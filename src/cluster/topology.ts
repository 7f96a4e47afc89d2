import type { NodeRef, NodeState, Topology } from './types.ts';

/** One line of CLUSTER NODES, as Redis prints it. */
export interface ClusterNodesLine {
  readonly id: string;
  /** "host:port" of the announced client address. */
  readonly address: string;
  readonly flags: readonly string[];
  /** Master id for replicas, '-' for masters. */
  readonly masterId: string;
  readonly linkState: string;
  readonly slots: readonly (readonly [number, number])[];
}

export function parseClusterNodes(text: string): ClusterNodesLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [id, addr, flags, masterId, , , , linkState, ...slotFields] = line.split(' ');
      const slots = slotFields
        .filter((s) => !s.startsWith('[')) // importing/migrating markers
        .map((s) => {
          const [from, to] = s.split('-').map(Number);
          return [from, to ?? from] as const;
        });
      return {
        id,
        address: addr.split('@')[0],
        flags: flags.split(','),
        masterId,
        linkState,
        slots,
      };
    });
}

export function formatSlots(slots: readonly (readonly [number, number])[]): string {
  return slots.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');
}

/** A Topology from one node's CLUSTER NODES view, naming nodes by our indices. */
export function topologyFrom(lines: readonly ClusterNodesLine[], nodes: readonly NodeRef[]): Topology {
  const byAddress = new Map(nodes.map((n) => [n.announced, n]));
  const indexById = new Map<string, number>();
  for (const line of lines) {
    const node = byAddress.get(line.address);
    if (node) indexById.set(line.id, node.index);
  }
  const states: NodeState[] = [];
  for (const line of lines) {
    const node = byAddress.get(line.address);
    if (!node) continue;
    const isMaster = line.flags.includes('master');
    states.push({
      node,
      id: line.id,
      role: isMaster ? 'master' : 'replica',
      masterIndex: isMaster ? null : (indexById.get(line.masterId) ?? null),
      slots: isMaster ? line.slots : [],
      flags: line.flags.filter((f) => f !== 'myself' && f !== 'master' && f !== 'slave' && f !== 'noflags'),
    });
  }
  states.sort((a, b) => a.node.index - b.node.index);
  return {
    nodes: states,
    toString() {
      const masters = states.filter((s) => s.role === 'master');
      const parts = masters.map((m) => {
        const replicas = states.filter((s) => s.masterIndex === m.node.index).map((s) => s.node.name);
        const flags = m.flags.length ? ` [${m.flags.join(',')}]` : '';
        return `${m.node.name} master ${formatSlots(m.slots) || '(no slots)'}${flags}${replicas.length ? ` <- ${replicas.join(',')}` : ''}`;
      });
      const orphans = states
        .filter((s) => s.role === 'replica' && s.masterIndex === null)
        .map((s) => `${s.node.name} replica of ?`);
      return [...parts, ...orphans].join(' | ');
    },
  };
}
