import type { LocalCluster } from '../cluster/local.ts';
import type { Topology } from '../cluster/types.ts';
import { parseInfo } from '../resp/info.ts';
import { keySlot } from '../resp/key-slot.ts';

export interface Shard {
  readonly slot: number;
  readonly master: number;
  readonly replicas: readonly number[];
}

export function shardOfSlot(topology: Topology, slot: number): Shard {
  const master = topology.nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => slot >= a && slot <= b));
  if (!master) throw new Error(`no master serves slot ${slot} in ${topology}`);
  const replicas = topology.nodes
    .filter((n) => n.role === 'replica' && n.masterIndex === master.node.index)
    .map((n) => n.node.index);
  return { slot, master: master.node.index, replicas };
}

export async function shardOf(cluster: LocalCluster, key: string): Promise<Shard> {
  return shardOfSlot(await cluster.topology(), keySlot(key));
}

export async function masterIndexes(cluster: LocalCluster): Promise<number[]> {
  return (await cluster.topology()).nodes.filter((n) => n.role === 'master').map((n) => n.node.index);
}

/** The first `count` keys `make(0), make(1), ...` that live on `master`. */
export function keysOn(topology: Topology, master: number, count: number, make: (i: number) => string): string[] {
  const keys: string[] = [];
  for (let i = 0; keys.length < count; i++) {
    if (i > 100_000) throw new Error(`no ${count} keys on node ${master} among the first 100,000 candidates`);
    const key = make(i);
    if (shardOfSlot(topology, keySlot(key)).master === master) keys.push(key);
  }
  return keys;
}

/** One INFO section of one node, as fields (control plane, straight to the server). */
export async function nodeInfo(cluster: LocalCluster, node: number, section: string): Promise<Record<string, string>> {
  return parseInfo(String(await cluster.command(node, 'INFO', section)));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
