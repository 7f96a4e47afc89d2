import { Cluster as IORedisCluster, type ClusterOptions } from 'ioredis';
import { AdminPool, parseInfo } from '../admin.ts';
import { redisServerBinary, toxiproxyBinary } from '../binaries.ts';
import { ClusterUsageError, EnvironmentError } from '../errors.ts';
import { healCluster } from '../heal.ts';
import { promoteReplica } from '../failover.ts';
import { localClusterOptions, type LocalClusterConstraints, type LocalClusterOptions } from '../options.ts';
import { freePorts } from '../ports.ts';
import { readinessProblem } from '../readiness.ts';
import { reapedDir, type ReapedDir } from '../reaper.ts';
import { parseClusterNodes, topologyFrom } from '../topology.ts';
import { Toxiproxy } from '../toxiproxy.ts';
import type { Cluster, FailoverMode, Link, NodeRef, ToxicSpec, Topology } from '../types.ts';
import { sleep, waitUntil } from '../wait.ts';
import { RespPoints } from '../../resp/point.ts';
import { netnsTools } from './host.ts';
import { PeerLinks } from './links.ts';
import type { Partitions } from './partitions.ts';
import { NetnsNetwork } from './network.ts';
import { BUS_PORT, NetnsNode, REDIS_PORT } from './node.ts';

const SLOTS = 16384;

/**
 * `--cluster netns`: every redis-server in a network namespace of its own, joined to a bridge by a
 * veth pair, at its own address; the harness, Toxiproxy's client proxies and the RESP points stay in
 * the root namespace. Nodes replicate and gossip over the bridge directly, so a partition between
 * two nodes is real (nftables in their namespaces, see PeerLinks) while every node stays reachable to
 * the clients — the one failure Toxiproxy in front of a node cannot make: an isolated master that
 * keeps acknowledging writes until cluster-node-timeout while the majority promotes its replica.
 * Same options as LocalCluster. Needs root, `ip`, `nft` and `tc`.
 */
export class NetnsCluster implements Cluster {
  readonly kind = 'netns' as const;
  readonly destructive = true;
  private readonly admin = new AdminPool();
  private disposed = false;

  private constructor(
    readonly options: LocalClusterOptions,
    private readonly dir: ReapedDir,
    readonly network: NetnsNetwork,
    private readonly toxiproxy: Toxiproxy,
    private readonly redisNodes: readonly NetnsNode[],
    private readonly points: RespPoints,
    readonly links: PeerLinks,
  ) {}

  get commands(): RespPoints {
    return this.points;
  }

  /** Partitions between nodes: Jepsen's grudge, healed by heal(). */
  get partitions(): Partitions {
    return this.links;
  }

  get nodes(): readonly NodeRef[] {
    return this.redisNodes.map((n) => n.ref);
  }

  get directory(): string {
    return this.dir.dir;
  }

  static async start(constraints: LocalClusterConstraints = {}): Promise<NetnsCluster> {
    const options = localClusterOptions(constraints);
    const tools = netnsTools();
    const redisBin = redisServerBinary();
    const toxiBin = toxiproxyBinary();
    const total = options.masters * (1 + options.replicasPerMaster);
    const dir = reapedDir('chaoslua-netns');
    let cluster: NetnsCluster | undefined;
    let points: RespPoints | undefined;
    try {
      const network = NetnsNetwork.create(tools, dir, total);
      const ports = await freePorts(1 + total * 2);
      const toxiproxy = await Toxiproxy.start(toxiBin, dir, ports[0], options.seed);
      const nodes = network.nodes.map((net, i) => new NetnsNode(i, net, { client: ports[1 + i * 2], point: ports[2 + i * 2] }, tools.ip, redisBin, dir, options));
      await toxiproxy.createProxies(nodes.map((n) => ({ name: `${n.ref.name}-client`, listen: `127.0.0.1:${n.ports.client}`, upstream: n.ref.direct })));
      points = await RespPoints.start(nodes.map((n) => ({ node: n.ref.name, listen: n.ports.point, address: { host: '127.0.0.1', port: n.ports.client } })));
      cluster = new NetnsCluster(options, dir, network, toxiproxy, nodes, points, new PeerLinks(tools, network.nodes, network.hostIp));
      await cluster.create();
      return cluster;
    } catch (error) {
      cluster?.admin.close();
      await points?.close();
      dir.destroy();
      if (error instanceof EnvironmentError) throw error;
      throw new EnvironmentError(`netns cluster did not start: ${(error as Error).message}`);
    }
  }

  private async create(): Promise<void> {
    const { masters } = this.options;
    for (const node of this.redisNodes) node.start();
    await Promise.all(this.redisNodes.map((n) => this.waitForPing(n)));
    const per = Math.floor(SLOTS / masters);
    await Promise.all(
      this.redisNodes.slice(0, masters).map((n, i) => {
        const from = i * per;
        const to = i === masters - 1 ? SLOTS - 1 : from + per - 1;
        return this.direct(n, 'CLUSTER', 'ADDSLOTSRANGE', from, to);
      }),
    );
    await Promise.all(this.redisNodes.map((n, i) => this.direct(n, 'CLUSTER', 'SET-CONFIG-EPOCH', i + 1)));
    const [first, ...rest] = this.redisNodes;
    for (const n of rest) await this.direct(first, 'CLUSTER', 'MEET', n.net.ip, REDIS_PORT, BUS_PORT);
    await waitUntil(
      'every node knows every other node',
      async () => {
        for (const n of this.redisNodes) {
          const info = parseInfo(String(await this.direct(n, 'CLUSTER', 'INFO')));
          if (Number(info.cluster_known_nodes) !== this.redisNodes.length) return `${n.ref.name} knows ${info.cluster_known_nodes} nodes`;
        }
        return true;
      },
      this.options.readyTimeoutMs,
    );
    const ids = await Promise.all(this.redisNodes.map(async (n) => String(await this.direct(n, 'CLUSTER', 'MYID'))));
    await Promise.all(
      this.redisNodes.slice(masters).map((n, i) =>
        waitUntil(
          `${n.ref.name} replicating ${ids[i % masters].slice(0, 8)}`,
          async () => {
            await this.direct(n, 'CLUSTER', 'REPLICATE', ids[i % masters]);
            return true;
          },
          this.options.readyTimeoutMs,
        ),
      ),
    );
    await this.waitReady();
  }

  private async waitForPing(node: NetnsNode): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      node.assertAlive();
      if ((await this.direct(node, 'PING').catch(() => undefined)) === 'PONG') return;
      await sleep(10);
    }
    throw new EnvironmentError(`redis-server ${node.ref.name} did not answer PING at ${node.ref.direct} within 10 s`);
  }

  private direct(node: NetnsNode, ...args: (string | number)[]): Promise<unknown> {
    return this.admin.call(node.net.ip, REDIS_PORT, args);
  }

  async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    await waitUntil(
      'cluster ready',
      () => readinessProblem(this.redisNodes, this.options.replicasPerMaster, (n, ...a) => this.direct(n, ...a), (n) => this.admin.call('127.0.0.1', n.ports.point, ['PING'])),
      timeoutMs,
    );
  }

  seeds(): { host: string; port: number }[] {
    return this.redisNodes.map((n) => ({ host: '127.0.0.1', port: n.ports.point }));
  }

  natMap(): Record<string, { host: string; port: number }> {
    return Object.fromEntries(this.redisNodes.map((n) => [n.ref.announced, { host: '127.0.0.1', port: n.ports.point }]));
  }

  connect(options: ClusterOptions = {}): IORedisCluster {
    return new IORedisCluster(this.seeds(), { natMap: this.natMap(), ...options, redisOptions: { ...options.redisOptions } });
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
    await promoteReplica(this.node(replica), mode, this.redisNodes, (n, ...args) => this.direct(n, ...args), this.options.nodeTimeoutMs);
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
    await Promise.all(this.redisNodes.filter((n) => n.status === 'running').map((n) => this.direct(n, 'SCRIPT', 'FLUSH')));
  }

  /**
   * The client link is Toxiproxy's, as on the local backend. The internal and bus links have no
   * proxy here (nodes talk over the bridge), so their toxics are made in the node's namespace, on
   * what reaches it from its peers, as Toxiproxy in front of its announced ports would: latency a
   * netem delay, timeout packets dropped, reset_peer connections reset.
   */
  async toxic(node: number, link: Link, spec: ToxicSpec): Promise<void> {
    const n = this.node(node);
    if (link === 'client') return void (await this.toxiproxy.addToxic(`${n.ref.name}-client`, spec));
    if (spec.type === 'latency') return this.links.delay(node, spec.attributes.latency ?? 0, spec.attributes.jitter ?? 0);
    if (spec.type === 'reset_peer') return this.links.refuse(node);
    if (spec.type === 'timeout') {
      const grudge = new Map(this.links.current);
      grudge.set(node, [...new Set([...(grudge.get(node) ?? []), ...this.redisNodes.map((_, j) => j).filter((j) => j !== node)])]);
      return this.links.cut(grudge);
    }
    throw new ClusterUsageError(`toxic: a ${spec.type} toxic on the ${link} link is not available on the netns backend`);
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    if (link !== 'client') throw new ClusterUsageError(`setProxyEnabled: the netns backend has a proxy on the client link only`);
    await this.toxiproxy.setEnabled(`${this.node(node).ref.name}-client`, enabled);
  }

  /** Partitions, refusals and delays lifted first, so the rest of heal finds a connected cluster. */
  async heal(): Promise<void> {
    await this.links.heal();
    await healCluster(this.toxiproxy, this.redisNodes, this);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.admin.close();
    const pointsClosed = this.points.close();
    const exits = [...this.redisNodes.map((n) => n.process), this.toxiproxy.process]
      .filter((p) => p && p.exitCode === null && p.signalCode === null)
      .map((p) => new Promise((resolve) => p!.once('exit', resolve)));
    this.dir.destroy();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...exits, pointsClosed]), new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
    clearTimeout(timer);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  private node(index: number): NetnsNode {
    const node = this.redisNodes[index];
    if (!node) throw new ClusterUsageError(`no node ${index}: this cluster has nodes 0-${this.redisNodes.length - 1}`);
    return node;
  }

  /** Process-level facts for the teardown checks. */
  processes(): { name: string; pid: number | undefined; status: string; namespace: string }[] {
    return this.redisNodes.map((n) => ({ name: n.ref.name, pid: n.process?.pid, status: n.status, namespace: n.net.namespace }));
  }

  get toxiproxyPid(): number | undefined {
    return this.toxiproxy.process.pid;
  }

  toString(): string {
    return `netns cluster ${this.options.masters}+${this.options.masters * this.options.replicasPerMaster} (node timeout ${this.options.nodeTimeoutMs} ms, ${this.network})`;
  }
}
