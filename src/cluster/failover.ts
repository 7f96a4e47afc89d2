import fs from 'node:fs';
import { ClusterUsageError } from './errors.ts';
import { REDIS_LOG_PREFIX } from './server-process.ts';
import { parseClusterNodes } from './topology.ts';
import type { FailoverMode, NodeRef } from './types.ts';
import { waitUntil } from './wait.ts';

/** How long one CLUSTER FAILOVER is given before it is asked again: Redis's own 5 s limit on a manual failover, and a margin. */
const MANUAL_FAILOVER_WINDOW_MS = 6_000;

/** What promoteReplica needs of a backend's nodes (LocalCluster's and NetnsCluster's alike). */
export interface FailoverNode {
  readonly ref: NodeRef;
  readonly status: string;
  /** The server's log, where one is kept: its election lines say why a failover did not complete. */
  readonly logFile?: string;
}

/**
 * Promote a replica by CLUSTER FAILOVER and wait until every running node sees it as a master with
 * slots. Redis abandons a manual failover whose election has not won within 5 s
 * (CLUSTER_MF_TIMEOUT) and never retries it (seen here: a FORCE failover right after another
 * failover of the same shard left the replica a replica), so the harness asks again, as an
 * operator would, until the overall limit of max(20 s, 20 node timeouts).
 */
export async function promoteReplica<N extends FailoverNode>(
  node: N,
  mode: FailoverMode,
  nodes: readonly N[],
  direct: (node: N, ...args: (string | number)[]) => Promise<unknown>,
  nodeTimeoutMs: number,
): Promise<void> {
  const ownFlags = async () =>
    parseClusterNodes(String(await direct(node, 'CLUSTER', 'NODES'))).find((l) => l.flags.includes('myself'))?.flags ??
    [];
  if (!(await ownFlags()).includes('slave')) throw new ClusterUsageError(`failover: ${node.ref.name} is not a replica`);
  const args = mode === 'default' ? [] : [mode.toUpperCase()];
  const deadline = Date.now() + Math.max(20_000, nodeTimeoutMs * 20);
  const promoted = async (): Promise<true | string> => {
    for (const observer of nodes) {
      if (observer.status !== 'running') continue;
      const view = parseClusterNodes(String(await direct(observer, 'CLUSTER', 'NODES'))).find(
        (l) => l.address === node.ref.announced,
      );
      if (!view?.flags.includes('master') || view.slots.length === 0)
        return `${observer.ref.name} still sees ${node.ref.name} as ${view?.flags.join(',')}`;
    }
    return true;
  };
  for (;;) {
    // Asked (again) only while it still calls itself a replica: a promoted node refuses FAILOVER.
    if ((await ownFlags()).includes('slave')) await direct(node, 'CLUSTER', 'FAILOVER', ...args);
    try {
      await waitUntil(
        `${node.ref.name} promoted by ${mode} failover`,
        promoted,
        Math.max(Math.min(MANUAL_FAILOVER_WINDOW_MS, deadline - Date.now()), 1),
      );
      return;
    } catch (error) {
      if (Date.now() >= deadline)
        throw new Error(
          [(error as Error).message, await replicaSide(node, direct), ...electionLines([node, ...nodes])].join('; '),
        );
    }
  }
}

/**
 * Why a replica may not have won: its link to its master and how far behind it is (a graceful
 * failover waits for the offsets to meet), as INFO replication says; appended to the error.
 */
async function replicaSide<N extends FailoverNode>(
  node: N,
  direct: (node: N, ...args: (string | number)[]) => Promise<unknown>,
): Promise<string> {
  try {
    const info = String(await direct(node, 'INFO', 'replication'));
    const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '?';
    return (
      `${node.ref.name} reports role ${field('role')}, master link ${field('master_link_status')}, ` +
      `sync in progress ${field('master_sync_in_progress')}, offset ${field('slave_repl_offset')} ` +
      `(master's last seen ${field('master_last_io_seconds_ago')} s ago)`
    );
  } catch (error) {
    return `${node.ref.name}'s INFO replication failed: ${(error as Error).message}`;
  }
}

/** What a server log says about failovers and votes: a replica's "Manual failover timed out", a master's "Failover auth denied ... can't vote". */
const ELECTION = /fail ?over|election|vote|auth/i;

/**
 * The last election line of each node's log (the replica's first), as `n3 log: <line>`: whether the
 * replica started an election at all, and why the masters refused it, are only in the logs.
 */
export function electionLines(nodes: readonly FailoverNode[]): string[] {
  const lines: string[] = [];
  for (const node of new Set(nodes)) {
    if (!node.logFile) continue;
    let text: string;
    try {
      text = fs.readFileSync(node.logFile, 'utf8');
    } catch {
      continue;
    }
    const last = text
      .split('\n')
      .filter((l) => ELECTION.test(l))
      .pop();
    if (last) lines.push(`${node.ref.name} log: ${last.replace(REDIS_LOG_PREFIX, '').slice(0, 160)}`);
  }
  return lines;
}
