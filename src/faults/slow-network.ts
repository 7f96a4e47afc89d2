import fc from 'fast-check';
import type { Cluster, ToxicSpec } from '../cluster/types.ts';
import type { NetworkProfile } from '../plan/schedule.ts';
import { defineFault } from './types.ts';

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

/** A slow network between clients and Redis for a third of the runs (another zone, another region). */
export const slowNetwork = defineFault({
  name: 'slow-network',
  description: 'extra latency on every reply to a client for the whole run (another zone or region)',
  backends: 'any',
  external: 'never',
  recordedAs: 'slow-network',
  draw: {
    lane: 'network',
    profile: () =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.integer({ min: 5, max: 40 }).map((clientLatencyMs) => ({ clientLatencyMs })) }, // another zone
        { weight: 1, arbitrary: fc.integer({ min: 60, max: 150 }).map((clientLatencyMs) => ({ clientLatencyMs })) }, // another region
      ),
  },
});
