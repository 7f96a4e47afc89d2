import type { Cluster } from '../cluster/types.ts';
import type { ImplOpener, OpenedImpl } from './types.ts';

/**
 * The implementation opened on every cluster of a job at once (one per lane, --clusters). When one
 * refuses, the ones that opened are closed before its error is thrown: nothing is left open.
 */
export async function openOnLanes(
  open: ImplOpener,
  clusters: readonly Cluster[],
  clients: number,
): Promise<OpenedImpl[]> {
  const settled = await Promise.allSettled(clusters.map((cluster) => open(cluster, clients)));
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const refused = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (refused) {
    await Promise.allSettled(opened.map((o) => o.close()));
    throw refused.reason;
  }
  return opened;
}
