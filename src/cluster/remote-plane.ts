import type { ConnectionOptions } from 'node:tls';
import { Redis } from 'ioredis';
import { parseInfo } from '../resp/info.ts';
import { ClusterUsageError, EnvironmentError } from './errors.ts';
import { parseClusterNodes, topologyFrom, type ClusterNodesLine } from './topology.ts';
import type { FailoverMode, NodeRef, Topology } from './types.ts';
import { waitUntil } from './wait.ts';

export interface Address {
  host: string;
  port: number;
}

/** Credentials and TLS for every control-plane connection. */
export interface Auth {
  readonly username?: string;
  readonly password?: string;
  readonly tls?: ConnectionOptions;
}

export function splitAddress(address: string): Address {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  if (colon <= 0 || !Number.isInteger(port) || port < 1 || port > 65_535)
    throw new EnvironmentError(`cannot dial '${address}': not host:port`);
  return { host: address.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port };
}

const BAD_FLAGS = ['fail', 'fail?', 'handshake', 'noaddr'];

export interface ReadyExpectation {
  /** Every node must know exactly this many nodes. */
  readonly nodes?: number;
  /** Every master must have this many replicas. */
  readonly replicasPerMaster?: number;
}

/**
 * Everything a cluster can be asked through plain redis commands, node by node, for backends whose
 * nodes are not our child processes (AdminPool's job for LocalCluster, which needs no AUTH or TLS).
 * One connection per address, dropped on any error so a dead node never wedges the next call.
 */
export class RemotePlane {
  private readonly connections = new Map<string, Redis>();
  private readonly lastErrors = new Map<string, string>();

  constructor(
    private readonly nodes: () => readonly NodeRef[],
    private readonly auth: Auth = {},
    /** False for a node that is known to be down (compose: killed or paused). */
    private readonly running: (index: number) => boolean = () => true,
    private readonly timeoutMs = 2_000,
  ) {}

  connection(address: Address): Redis {
    const key = `${address.host}:${address.port}`;
    let redis = this.connections.get(key);
    if (!redis) {
      redis = new Redis({
        ...address,
        ...this.auth,
        lazyConnect: true,
        connectTimeout: this.timeoutMs,
        commandTimeout: this.timeoutMs,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      // The socket's own error (ECONNREFUSED, WRONGPASS...) arrives as an event; the failed call
      // only says "Connection is closed", so keep the event's message for the caller.
      redis.on('error', (error: Error) => this.lastErrors.set(key, error.message));
      this.connections.set(key, redis);
    }
    return redis;
  }

  async callAt(address: Address, ...args: (string | number)[]): Promise<unknown> {
    const redis = this.connection(address);
    try {
      if (redis.status === 'wait') await redis.connect();
      const [command, ...rest] = args;
      return await redis.call(String(command), ...rest.map(String));
    } catch (error) {
      const cause = this.lastErrors.get(`${address.host}:${address.port}`);
      this.drop(address);
      if (cause && /Connection is closed/.test((error as Error).message)) throw new Error(cause);
      throw error;
    }
  }

  call(index: number, ...args: (string | number)[]): Promise<unknown> {
    return this.callAt(splitAddress(this.node(index).direct), ...args);
  }

  drop(address: Address): void {
    const key = `${address.host}:${address.port}`;
    this.connections.get(key)?.disconnect();
    this.connections.delete(key);
    this.lastErrors.delete(key);
  }

  close(): void {
    for (const redis of this.connections.values()) redis.disconnect();
    this.connections.clear();
    this.lastErrors.clear();
  }

  node(index: number): NodeRef {
    const nodes = this.nodes();
    const node = nodes[index];
    if (!node) throw new ClusterUsageError(`no node ${index}: this cluster has nodes 0-${nodes.length - 1}`);
    return node;
  }

  async topology(): Promise<Topology> {
    for (const node of this.nodes()) {
      if (!this.running(node.index)) continue;
      const text = await this.call(node.index, 'CLUSTER', 'NODES').catch(() => undefined);
      if (typeof text === 'string') return topologyFrom(parseClusterNodes(text), this.nodes());
    }
    throw new Error('topology: no node answered CLUSTER NODES');
  }

  async redisVersion(): Promise<string> {
    const problems: string[] = [];
    for (const node of this.nodes()) {
      if (!this.running(node.index)) continue;
      try {
        return parseInfo(String(await this.call(node.index, 'INFO', 'server'))).redis_version;
      } catch (error) {
        problems.push(`${node.name}: ${(error as Error).message}`);
      }
    }
    throw new Error(`redisVersion: no node answered INFO (${problems.join('; ')})`);
  }

  async scriptFlush(): Promise<void> {
    await Promise.all(
      this.nodes()
        .filter((n) => this.running(n.index))
        .map((n) => this.call(n.index, 'SCRIPT', 'FLUSH')),
    );
  }

  /** CLUSTER FAILOVER on the replica, then wait until every running node sees it as a master with slots. */
  async failover(replica: number, mode: FailoverMode, timeoutMs: number): Promise<void> {
    const node = this.node(replica);
    const own = parseClusterNodes(String(await this.call(replica, 'CLUSTER', 'NODES'))).find((l) =>
      l.flags.includes('myself'),
    );
    if (!own?.flags.includes('slave')) throw new ClusterUsageError(`failover: ${node.name} is not a replica`);
    await this.call(replica, 'CLUSTER', 'FAILOVER', ...(mode === 'default' ? [] : [mode.toUpperCase()]));
    await waitUntil(
      `${node.name} promoted by ${mode} failover`,
      async () => {
        for (const observer of this.nodes()) {
          if (!this.running(observer.index)) continue;
          const lines = parseClusterNodes(String(await this.call(observer.index, 'CLUSTER', 'NODES')));
          const view = lines.find((l) => l.address === node.announced);
          if (!view?.flags.includes('master') || view.slots.length === 0)
            return `${observer.name} still sees ${node.name} as ${view?.flags.join(',')}`;
        }
        return true;
      },
      timeoutMs,
    );
  }

  /**
   * `true` when ready, else the first reason not: every node answers with cluster_state:ok and all
   * 16384 slots assigned, all agree on who serves which slots and who replicates whom, and every replica is linked to the
   * master the cluster says it follows (a replica still syncing cannot take a default failover);
   * optionally (`expect`) the node count and replicas per master, and no failure flags.
   */
  async readyProblem(expect: ReadyExpectation): Promise<true | string> {
    let agreed: string | undefined;
    let first: ClusterNodesLine[] = [];
    for (const node of this.nodes()) {
      if (!this.running(node.index)) return `${node.name} is down`;
      const info = parseInfo(String(await this.call(node.index, 'CLUSTER', 'INFO')));
      if (info.cluster_state !== 'ok') return `${node.name} cluster_state:${info.cluster_state}`;
      if (info.cluster_slots_assigned !== '16384')
        return `${node.name} sees ${info.cluster_slots_assigned} slots assigned`;
      if (expect.nodes !== undefined && Number(info.cluster_known_nodes) !== expect.nodes)
        return `${node.name} knows ${info.cluster_known_nodes} of ${expect.nodes} nodes`;
      const lines = parseClusterNodes(String(await this.call(node.index, 'CLUSTER', 'NODES')));
      if (expect.nodes !== undefined) {
        const flagged = lines.find((l) => l.flags.some((f) => BAD_FLAGS.includes(f)));
        if (flagged) return `${node.name} flags ${flagged.address} as ${flagged.flags.join(',')}`;
      }
      // Roles too, not only slots: right after a failover the new master may still count its old
      // master as a master, and then refuses the MFSTART of what is by now its replica.
      const ids = new Map(lines.map((l) => [l.id, l.address]));
      const view = lines
        .map((l) =>
          l.flags.includes('slave')
            ? `${l.address}<-${ids.get(l.masterId)}`
            : `${l.address}=${l.slots.map((s) => s.join('-')).join(',')}`,
        )
        .sort()
        .join(' ');
      if (agreed === undefined) [agreed, first] = [view, lines];
      else if (view !== agreed) return `${node.name} disagrees on roles or slot ownership`;
    }
    const addressOf = new Map(first.map((l) => [l.id, l.address]));
    for (const master of first.filter((l) => l.flags.includes('master') && l.slots.length > 0)) {
      const count = first.filter((l) => l.flags.includes('slave') && l.masterId === master.id).length;
      if (count < (expect.replicasPerMaster ?? 0))
        return `master ${master.address} has ${count} of ${expect.replicasPerMaster} replicas`;
    }
    for (const node of this.nodes()) {
      const line = first.find((l) => l.address === node.announced);
      if (!line?.flags.includes('slave')) continue;
      const master = addressOf.get(line.masterId);
      const info = parseInfo(String(await this.call(node.index, 'INFO', 'replication')));
      if (info.role !== 'slave') return `${node.name} still reports role:${info.role}`;
      if (`${info.master_host}:${info.master_port}` !== master)
        return `${node.name} replicates ${info.master_host}:${info.master_port}, cluster says ${master}`;
      if (info.master_link_status !== 'up') return `${node.name} master_link_status:${info.master_link_status}`;
    }
    return true;
  }

  /**
   * UNLINK every key matching `pattern` on every master that serves slots (replicas follow).
   * One key per command: keys of different slots cannot share a command even on one node.
   * Returns one message per key or node that failed.
   */
  async deleteMatching(pattern: string): Promise<string[]> {
    const topology = await this.topology();
    const failures: string[] = [];
    for (const state of topology.nodes.filter((s) => s.role === 'master' && s.slots.length > 0)) {
      const redis = this.connection(splitAddress(state.node.direct));
      try {
        if (redis.status === 'wait') await redis.connect();
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
          cursor = next;
          if (keys.length === 0) continue;
          const results = (await redis.pipeline(keys.map((k) => ['unlink', k])).exec()) ?? [];
          for (const [error] of results) if (error) failures.push(`${state.node.name}: ${error.message}`);
        } while (cursor !== '0');
      } catch (error) {
        failures.push(`${state.node.name}: ${(error as Error).message}`);
      }
    }
    return failures;
  }
}

/** The Cluster methods that are one RemotePlane call, alike on the backends that have one (ExternalCluster, ComposeCluster). */
export abstract class PlaneCluster {
  protected abstract readonly plane: RemotePlane;

  command(node: number, ...args: (string | number)[]): Promise<unknown> {
    return this.plane.call(node, ...args);
  }

  topology(): Promise<Topology> {
    return this.plane.topology();
  }

  redisVersion(): Promise<string> {
    return this.plane.redisVersion();
  }
}
