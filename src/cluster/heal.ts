import type { Toxiproxy } from './toxiproxy.ts';

/** The node operations heal() uses; LocalCluster and ComposeCluster have them. */
export interface HealOps {
  thaw(node: number): Promise<void>;
  restart(node: number): Promise<void>;
  waitReady(): Promise<void>;
  topology(): Promise<unknown>;
}

/**
 * The one heal of the backends that run their nodes behind their own Toxiproxy: every node thawed,
 * every toxic off and proxy on, every node restarted, then ready again; a cluster that will not come
 * back says what it looks like.
 *
 * Thawed first: Toxiproxy removes a toxic only once the toxic has handed on what it holds, and a
 * frozen node reads nothing. Replication and gossip cross the proxies, so the link to a frozen node
 * fills within seconds, and /reset then waits for the node, which the heal would only thaw after it
 * (seen in a soak, and reproduced in suites/cluster/heal-frozen.test.ts: /reset timed out after 42 s).
 */
export async function healCluster(
  toxiproxy: Pick<Toxiproxy, 'reset' | 'restart' | 'restartable' | 'alive'>,
  nodes: readonly { readonly index: number; readonly status: string }[],
  ops: HealOps,
): Promise<void> {
  for (const n of nodes) if (n.status === 'frozen') await ops.thaw(n.index);
  await resetToxiproxy(toxiproxy);
  for (const n of nodes) if (n.status === 'killed') await ops.restart(n.index);
  try {
    await ops.waitReady();
  } catch (error) {
    throw new Error(
      `heal failed: ${(error as Error).message}; topology: ${await ops.topology().catch(() => 'unknown')}`,
    );
  }
}

/**
 * /reset, or, when a server this harness started is alive but no longer answers it (its retries
 * spent), a new server in its place: a hung control port (Shopify/toxiproxy#558 is one cause; the
 * thaw above removes the one seen here) would otherwise end the job on a correct implementation.
 * A server that died is the environment failing (killed, out of memory): the job ends and says so,
 * keeping its finished runs (suites/certify/environment-failure.full.test.ts). A server someone else
 * runs (the compose backend's) is not ours to restart: its error stands.
 */
async function resetToxiproxy(
  toxiproxy: Pick<Toxiproxy, 'reset' | 'restart' | 'restartable' | 'alive'>,
): Promise<void> {
  try {
    await toxiproxy.reset();
  } catch (error) {
    if (!toxiproxy.restartable || !toxiproxy.alive) throw error;
    await toxiproxy.restart().catch((restartError: unknown) => {
      throw new Error(
        `${(error as Error).message}; restarting toxiproxy failed too: ${(restartError as Error).message}`,
      );
    });
  }
}
