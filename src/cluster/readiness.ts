import { parseInfo } from '../resp/info.ts';
import type { ServerProcess } from './server-process.ts';
import { parseClusterNodes } from './topology.ts';

/** What readiness reads of a node (a local or a netns one). */
type ReadyNode = Pick<ServerProcess, 'ref' | 'status'>;
type Direct<N> = (node: N, ...args: (string | number)[]) => Promise<unknown>;

const BAD_FLAGS = ['fail', 'fail?', 'handshake', 'noaddr'];

/**
 * `true` when the cluster is ready, else the first reason it is not. Ready means: every node up and
 * agreeing that all 16384 slots are served by the same masters, nobody flagged failing, every master
 * with its replicas attached (`master_link_status:up`), and every client proxy answering.
 */
export async function readinessProblem<N extends ReadyNode>(
  nodes: readonly N[],
  replicasPerMaster: number,
  direct: Direct<N>,
  clientPing: (node: N) => Promise<unknown>,
): Promise<true | string> {
  let agreed: string | undefined;
  let masters: string[] = [];
  let replicaOf = new Map<string, string>();
  for (const node of nodes) {
    if (node.status !== 'running') return `${node.ref.name} is ${node.status}`;
    const info = parseInfo(String(await direct(node, 'CLUSTER', 'INFO')));
    if (info.cluster_state !== 'ok') return `${node.ref.name} cluster_state:${info.cluster_state}`;
    if (info.cluster_slots_assigned !== '16384')
      return `${node.ref.name} sees ${info.cluster_slots_assigned} slots assigned`;
    if (Number(info.cluster_known_nodes) !== nodes.length)
      return `${node.ref.name} knows ${info.cluster_known_nodes} of ${nodes.length} nodes`;
    const lines = parseClusterNodes(String(await direct(node, 'CLUSTER', 'NODES')));
    const flagged = lines.find((l) => l.flags.some((f) => BAD_FLAGS.includes(f)));
    if (flagged) return `${node.ref.name} flags ${flagged.address} as ${flagged.flags.join(',')}`;
    // Agreement on roles as well as slots: right after a failover the new master may still see
    // its old master as a master, and would then ignore that node's next failover request.
    const idToAddress = new Map(lines.map((l) => [l.id, l.address]));
    const view = lines
      .map((l) =>
        l.flags.includes('master')
          ? `${l.address}=master:${l.slots.map((s) => s.join('-')).join(',')}`
          : `${l.address}=replica-of:${idToAddress.get(l.masterId) ?? '?'}`,
      )
      .sort()
      .join(' ');
    if (agreed === undefined) {
      agreed = view;
      masters = lines.filter((l) => l.flags.includes('master') && l.slots.length > 0).map((l) => l.address);
      replicaOf = new Map(
        lines.filter((l) => l.flags.includes('slave')).map((l) => [l.address, idToAddress.get(l.masterId) ?? '?']),
      );
    } else if (view !== agreed) {
      return `${node.ref.name} disagrees on slot ownership or roles`;
    }
  }
  for (const master of masters) {
    const count = [...replicaOf.values()].filter((m) => m === master).length;
    if (count < replicasPerMaster) return `master ${master} has ${count} of ${replicasPerMaster} replicas`;
  }
  for (const node of nodes) {
    const master = replicaOf.get(node.ref.announced);
    if (master === undefined) continue;
    const info = parseInfo(String(await direct(node, 'INFO', 'replication')));
    if (info.role !== 'slave') return `${node.ref.name} still reports role:${info.role}`;
    if (`${info.master_host}:${info.master_port}` !== master)
      return `${node.ref.name} replicates ${info.master_host}:${info.master_port}, cluster says ${master}`;
    if (info.master_link_status !== 'up') return `${node.ref.name} master_link_status:${info.master_link_status}`;
  }
  for (const node of nodes) {
    if ((await clientPing(node).catch((e: Error) => e.message)) !== 'PONG')
      return `client proxy of ${node.ref.name} not answering`;
  }
  return true;
}
