import { applyNetwork } from './slow-network.ts';
import type { NemesisContext } from './types.ts';

/** Every cluster fault's heal: every node back, every toxic and partition gone, then the run's own network profile back in place. */
export async function healCluster(ctx: NemesisContext): Promise<void> {
  await ctx.cluster.heal();
  await applyNetwork(ctx.cluster, ctx.network);
}
