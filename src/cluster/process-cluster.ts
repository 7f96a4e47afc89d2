import { Cluster as IORedisCluster, type ClusterOptions } from 'ioredis';
import { parseInfo } from '../resp/info.ts';
import { AdminPool } from './admin.ts';
import { ClusterUsageError, EnvironmentError } from './errors.ts';
import { promoteReplica } from './failover.ts';
import { healCluster } from './heal.ts';
import type { LocalClusterOptions } from './options.ts';
import { readinessProblem } from './readiness.ts';
import type { ReapedDir } from './reaper.ts';
import type { ServerProcess } from './server-process.ts';
import { parseClusterNodes, topologyFrom } from './topology.ts';
import type { Toxiproxy } from './toxiproxy.ts';
import type { ClockSetting } from '../clock/page.ts';
import type { Cluster, FailoverMode, Link, NodeRef, ServerClocks, ToxicSpec, Topology } from './types.ts';
import { sleep, waitUntil } from './wait.ts';
import type { RespPoints } from '../resp/point.ts';

const SLOTS = 16384;

/** A node the harness runs itself, with the root-namespace port of the RESP point clients dial. */
export type ProcessNode = ServerProcess & { readonly ports: { readonly point: number } };

/** How the control plane reaches a node, and the address it gives CLUSTER MEET. */
export interface NodeAddress {
  readonly host: string;
  readonly port: number;
  readonly busPort: number;
}

/**
 * The part of a cluster the harness runs as its own processes that does not depend on where the
 * servers live: forming the cluster, readiness, the node faults (freeze, kill, restart, failover,
 * SCRIPT FLUSH), heal and teardown. Clients dial the RESP points in front of Toxiproxy's client
 * proxies on loopback, whatever the backend. A backend says how the control plane reaches a node
 * (`control`) and what CLUSTER MEET is given (`meet`); it owns its link faults (`toxic`).
 */
export abstract class ProcessCluster<N extends ProcessNode> implements Cluster {
  abstract readonly kind: Cluster['kind'];
  readonly destructive = true;
  protected readonly admin = new AdminPool();
  private disposed = false;

  protected constructor(
    readonly options: LocalClusterOptions,
    protected readonly dir: ReapedDir,
    protected readonly toxiproxy: Toxiproxy,
    protected readonly redisNodes: readonly N[],
    private readonly points: RespPoints,
  ) {}

  /** Where the control plane dials a node directly (not through any proxy). */
  protected abstract control(node: N): { host: string; port: number };
  /** The address another node is told to MEET this one at. */
  protected abstract meet(node: N): NodeAddress;
  abstract toxic(node: number, link: Link, spec: ToxicSpec): Promise<void>;
  abstract setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void>;

  /** The RESP points in front of the client proxies (clients -> RESP point -> Toxiproxy -> redis-server). */
  get commands(): RespPoints {
    return this.points;
  }

  get nodes(): readonly NodeRef[] {
    return this.redisNodes.map((n) => n.ref);
  }

  /** The nodes' clock pages, when every node has one (the preload could be built). */
  get clocks(): ServerClocks | undefined {
    if (!this.redisNodes.every((n) => n.clock)) return undefined;
    const page = (node: number) => this.node(node).clock!;
    return {
      set: (node: number, setting: ClockSetting) => page(node).set(setting),
      offsetMs: (node: number) => page(node).offsetMs(),
      reset: () => {
        for (const n of this.redisNodes) n.clock!.reset();
      },
    };
  }

  /** The run's temp dir (logs, nodes.conf); removed on dispose. */
  get directory(): string {
    return this.dir.dir;
  }

  get toxiproxyPid(): number | undefined {
    return this.toxiproxy.process.pid;
  }

  /** Form the cluster: slots on masters, one MEET round, replicas attached, then wait for ready. */
  protected async create(): Promise<void> {
    const { masters } = this.options;
    for (const node of this.redisNodes) node.start();
    await Promise.all(this.redisNodes.map((n) => this.waitForPing(n)));
    const per = Math.floor(SLOTS / masters);
    await Promise.all(
      this.redisNodes.slice(0, masters).map((n, i) => {
        const from = i * per;
        const to = i === masters - 1 ? SLOTS - 1 : from + per - 1;
        return this.direct(n, 'CLUSTER', 'ADDSLOTSRANGE', from, to).catch((error: Error) => {
          // Redis 6.2 has no ADDSLOTSRANGE (7.0+): every slot named instead.
          if (!/unknown subcommand/i.test(error.message)) throw error;
          return this.direct(n, 'CLUSTER', 'ADDSLOTS', ...Array.from({ length: to - from + 1 }, (_, k) => from + k));
        });
      }),
    );
    // Distinct epochs up front spare the cluster its own collision-resolution round.
    await Promise.all(this.redisNodes.map((n, i) => this.direct(n, 'CLUSTER', 'SET-CONFIG-EPOCH', i + 1)));
    const [first, ...rest] = this.redisNodes;
    for (const n of rest) {
      const at = this.meet(n);
      await this.direct(first, 'CLUSTER', 'MEET', at.host, at.port, at.busPort);
    }
    await waitUntil(
      'every node knows every other node',
      async () => {
        for (const n of this.redisNodes) {
          const info = parseInfo(String(await this.direct(n, 'CLUSTER', 'INFO')));
          if (Number(info.cluster_known_nodes) !== this.redisNodes.length)
            return `${n.ref.name} knows ${info.cluster_known_nodes} nodes`;
        }
        return true;
      },
      this.options.readyTimeoutMs,
    );
    const ids = await Promise.all(this.redisNodes.map(async (n) => String(await this.direct(n, 'CLUSTER', 'MYID'))));
    await Promise.all(this.redisNodes.slice(masters).map((n, i) => this.retryReplicate(n, ids[i % masters])));
    await this.waitReady();
  }

  /** CLUSTER REPLICATE fails until the replica has learnt the master's role by gossip. */
  private async retryReplicate(node: N, masterId: string): Promise<void> {
    await waitUntil(
      `${node.ref.name} replicating ${masterId.slice(0, 8)}`,
      async () => {
        await this.direct(node, 'CLUSTER', 'REPLICATE', masterId);
        return true;
      },
      this.options.readyTimeoutMs,
    );
  }

  protected async waitForPing(node: N): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      node.assertAlive();
      if ((await this.direct(node, 'PING').catch(() => undefined)) === 'PONG') {
        // Another harness's server may answer on this address (ours then fails to bind): never talk to it.
        const pid = parseInfo(String(await this.direct(node, 'INFO', 'server'))).process_id;
        if (Number(pid) === node.pid) return;
        throw new EnvironmentError(
          `redis-server ${node.ref.name}: ${node.ref.direct} is answered by another process (pid ${pid}): address already in use`,
        );
      }
      await sleep(10);
    }
    throw new EnvironmentError(`redis-server ${node.ref.name} did not answer PING at ${node.ref.direct} within 10 s`);
  }

  protected direct(node: N, ...args: (string | number)[]): Promise<unknown> {
    const { host, port } = this.control(node);
    return this.admin.call(host, port, args);
  }

  /** Ready: every slot covered and agreed on, every replica linked to its master, every RESP point answering. */
  async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    await waitUntil(
      'cluster ready',
      () =>
        readinessProblem(
          this.redisNodes,
          this.options.replicasPerMaster,
          (n, ...a) => this.direct(n, ...a),
          (n) => this.admin.call('127.0.0.1', n.ports.point, ['PING']),
        ),
      timeoutMs,
    );
  }

  // ---- Cluster interface -------------------------------------------------------------------

  seeds(): { host: string; port: number }[] {
    return this.redisNodes.map((n) => ({ host: '127.0.0.1', port: n.ports.point }));
  }

  natMap(): Record<string, { host: string; port: number }> {
    return Object.fromEntries(
      this.redisNodes.map((n) => [n.ref.announced, { host: '127.0.0.1', port: n.ports.point }]),
    );
  }

  connect(options: ClusterOptions = {}): IORedisCluster {
    return new IORedisCluster(this.seeds(), {
      natMap: this.natMap(),
      ...options,
      redisOptions: { ...options.redisOptions },
    });
  }

  command(node: number, ...args: (string | number)[]): Promise<unknown> {
    return this.direct(this.node(node), ...args);
  }

  async topology(): Promise<Topology> {
    for (const node of this.redisNodes) {
      if (node.status !== 'running') continue;
      const text = await this.direct(node, 'CLUSTER', 'NODES').catch(() => undefined);
      if (typeof text === 'string') return topologyFrom(parseClusterNodes(text), this.nodes);
    }
    throw new Error('topology: no running node answered CLUSTER NODES');
  }

  async redisVersion(): Promise<string> {
    const running = this.redisNodes.find((n) => n.status === 'running');
    if (!running) throw new Error('redisVersion: no running node');
    return parseInfo(String(await this.direct(running, 'INFO', 'server'))).redis_version;
  }

  /** CLUSTER FAILOVER of a replica, asked again if Redis abandons it (./failover.ts). */
  async failover(replica: number, mode: FailoverMode): Promise<void> {
    await promoteReplica(
      this.node(replica),
      mode,
      this.redisNodes,
      (n, ...args) => this.direct(n, ...args),
      this.options.nodeTimeoutMs,
    );
  }

  async freeze(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'running') throw new ClusterUsageError(`freeze: ${n.ref.name} is ${n.status}`);
    n.signal('SIGSTOP');
    n.status = 'frozen';
    this.admin.drop(n.ref.direct);
  }

  async thaw(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'frozen') return;
    n.signal('SIGCONT');
    n.status = 'running';
  }

  async kill(node: number): Promise<void> {
    const n = this.node(node);
    await n.kill();
    this.admin.drop(n.ref.direct);
  }

  async restart(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'killed') await n.kill();
    n.start();
    await this.waitForPing(n);
  }

  async scriptFlush(): Promise<void> {
    await Promise.all(
      this.redisNodes.filter((n) => n.status === 'running').map((n) => this.direct(n, 'SCRIPT', 'FLUSH')),
    );
  }

  /** Every clock true first (instant, and a clock far ahead could have the node mark its peers as failing), then the rest. */
  heal(): Promise<void> {
    this.clocks?.reset();
    return healCluster(this.toxiproxy, this.redisNodes, this);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.admin.close();
    for (const n of this.redisNodes) n.clock?.close();
    const pointsClosed = this.points.close();
    const exits = [...this.redisNodes.map((n) => n.process), this.toxiproxy.process]
      .filter((p) => p && p.exitCode === null && p.signalCode === null)
      .map((p) => new Promise((resolve) => p!.once('exit', resolve)));
    this.dir.destroy();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...exits, pointsClosed]),
      new Promise((resolve) => (timer = setTimeout(resolve, 5_000))),
    ]);
    clearTimeout(timer);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  /**
   * Build a cluster and form it; on any failure close what was opened and remove the run's folder
   * (which kills its children, ./reaper.ts) before reporting an environment failure.
   */
  protected static async started<C extends ProcessCluster<ProcessNode>>(
    backend: string,
    dir: ReapedDir,
    build: (opened: { points?: RespPoints }) => Promise<C>,
  ): Promise<C> {
    const opened: { points?: RespPoints } = {};
    let cluster: C | undefined;
    try {
      cluster = await build(opened);
      await cluster.create();
      return cluster;
    } catch (error) {
      cluster?.admin.close();
      await opened.points?.close();
      dir.destroy();
      if (error instanceof EnvironmentError) throw error;
      throw new EnvironmentError(`${backend} cluster did not start: ${(error as Error).message}`);
    }
  }

  protected node(index: number): N {
    const node = this.redisNodes[index];
    if (!node) throw new ClusterUsageError(`no node ${index}: this cluster has nodes 0-${this.redisNodes.length - 1}`);
    return node;
  }
}
