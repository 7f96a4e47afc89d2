import { parseInfo } from '../resp/info.ts';
import { SENTINEL_MASTER_NAME } from './sentinel-nodes.ts';

/** What the Sentinel readiness reads of a data node. */
interface ReadyNode {
  readonly ref: { readonly name: string; readonly announced: string };
  readonly status: string;
}

type Call<T> = (target: T, ...args: (string | number)[]) => Promise<unknown>;

/** A Sentinel's reply to SENTINEL MASTER (a flat list of field, value), as a map. */
export function sentinelFields(reply: unknown): Record<string, string> {
  const list = Array.isArray(reply) ? reply.map(String) : [];
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]] = list[i + 1];
  return fields;
}

/** The primary each Sentinel names ("host:port"), in Sentinel order; a Sentinel that does not answer names ''. */
export async function primariesNamed<S>(sentinels: readonly S[], ask: Call<S>): Promise<string[]> {
  return Promise.all(
    sentinels.map(async (s) => {
      const reply = await ask(s, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER_NAME).catch(() => undefined);
      return Array.isArray(reply) && reply.length === 2 ? `${reply[0]}:${reply[1]}` : '';
    }),
  );
}

/**
 * `true` when the deployment is healthy, else the first reason it is not. Healthy means: every data
 * node running; every Sentinel naming the same primary, seeing it up (flags exactly `master`: no
 * s_down, o_down or failover in progress) and knowing the other Sentinels; that primary reporting
 * role:master with every replica connected; every other node its replica with the link up; every
 * RESP point answering. `follow` is called for a node that replicates the wrong server (or none)
 * once the Sentinels agree, as Sentinel itself would reconfigure it, only sooner.
 */
export async function sentinelReadiness<N extends ReadyNode, S>(
  nodes: readonly N[],
  sentinels: readonly S[],
  direct: Call<N>,
  ask: Call<S>,
  clientPing: (node: N) => Promise<unknown>,
  follow: (node: N, primary: string) => Promise<void>,
): Promise<true | string> {
  for (const node of nodes) if (node.status !== 'running') return `${node.ref.name} is ${node.status}`;
  const named = await primariesNamed(sentinels, ask);
  if (named.some((p) => p !== named[0])) return `the Sentinels name different primaries (${named.join(', ')})`;
  const primaryAddress = named[0];
  if (!primaryAddress) return 'no Sentinel names a primary';
  for (const [i, s] of sentinels.entries()) {
    const master = sentinelFields(await ask(s, 'SENTINEL', 'MASTER', SENTINEL_MASTER_NAME));
    if (master.flags !== 'master') return `Sentinel s${i} flags the primary ${master.flags}`;
    if (Number(master['num-other-sentinels']) !== sentinels.length - 1)
      return `Sentinel s${i} knows ${master['num-other-sentinels']} other Sentinels`;
  }
  const primary = nodes.find((n) => n.ref.announced === primaryAddress);
  if (!primary) return `the Sentinels name ${primaryAddress}, which is none of the nodes`;
  const info = parseInfo(String(await direct(primary, 'INFO', 'replication')));
  if (info.role !== 'master') return `${primary.ref.name}, the Sentinels' primary, reports role:${info.role}`;
  for (const node of nodes) {
    if (node === primary) continue;
    const r = parseInfo(String(await direct(node, 'INFO', 'replication')));
    if (r.role !== 'slave' || `${r.master_host}:${r.master_port}` !== primaryAddress) {
      await follow(node, primaryAddress);
      return `${node.ref.name} is ${r.role === 'slave' ? `a replica of ${r.master_host}:${r.master_port}` : 'a primary'}, not a replica of ${primary.ref.name}`;
    }
    if (r.master_link_status !== 'up') return `${node.ref.name} master_link_status:${r.master_link_status}`;
  }
  if (Number(info.connected_slaves) !== nodes.length - 1)
    return `${primary.ref.name} has ${info.connected_slaves} of ${nodes.length - 1} replicas connected`;
  // After a diskless full sync the primary holds its write stream back until the replica's first
  // acknowledgement, up to a second later (measured here: the first write reached a replica after
  // 600-800 ms): until each replica has acknowledged an offset, a write is not on its way to it.
  for (let i = 0; i < nodes.length - 1; i++) {
    const line = info[`slave${i}`] ?? '';
    if (!/state=online/.test(line) || !(Number(/offset=(\d+)/.exec(line)?.[1]) > 0)) {
      // Something in the stream to acknowledge (a PUBLISH replicates), rather than waiting for the Sentinels' next hello.
      if (Number(info.master_repl_offset) === 0) await direct(primary, 'PUBLISH', 'chaoslua:ready', '1');
      return `${primary.ref.name}'s replica ${i} has not acknowledged the stream yet (${line})`;
    }
  }
  for (const node of nodes) {
    if ((await clientPing(node).catch((e: Error) => e.message)) !== 'PONG')
      return `client proxy of ${node.ref.name} not answering`;
  }
  return true;
}
