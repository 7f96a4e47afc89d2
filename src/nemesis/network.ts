import type { Cluster, ToxicSpec } from '../cluster/types.ts';
import type { NetworkProfile } from '../plan/schedule.ts';

/**
 * Put a run's network profile in place: latency on every reply from every node to the clients
 * (replicas too, as any of them may be promoted). heal() removes every toxic, so the nemesis puts it
 * back after each heal.
 */
export async function applyNetwork(cluster: Cluster, profile: NetworkProfile | undefined): Promise<void> {
  if (!profile) return;
  for (const node of cluster.nodes) await cluster.toxic(node.index, 'client', latencyToxic(profile.clientLatencyMs));
}

/** Toxiproxy latency on replies (downstream), with a quarter of it as jitter: the one shape every latency fault takes. */
export function latencyToxic(ms: number): ToxicSpec {
  return { type: 'latency', stream: 'downstream', attributes: { latency: ms, jitter: Math.round(ms / 4) } };
}
