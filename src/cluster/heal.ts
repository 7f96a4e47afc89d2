import type { Toxiproxy } from './toxiproxy.ts';

/** The node operations heal() uses; LocalCluster and ComposeCluster have them. */
export interface HealOps {
  thaw(node: number): Promise<void>;
  restart(node: number): Promise<void>;
  waitReady(): Promise<void>;
  topology(): Promise<unknown>;
}

/**
 * The one heal of the backends that run their nodes behind their own Toxiproxy: every toxic off and
 * proxy on, every node thawed and restarted, then ready again; a cluster that will not come back
 * says what it looks like.
 */
export async function healCluster(toxiproxy: Pick<Toxiproxy, 'reset'>, nodes: readonly { readonly index: number; readonly status: string }[], ops: HealOps): Promise<void> {
  await toxiproxy.reset();
  for (const n of nodes) if (n.status === 'frozen') await ops.thaw(n.index);
  for (const n of nodes) if (n.status === 'killed') await ops.restart(n.index);
  try {
    await ops.waitReady();
  } catch (error) {
    throw new Error(`heal failed: ${(error as Error).message}; topology: ${await ops.topology().catch(() => 'unknown')}`);
  }
}
