import { Cluster as IORedisCluster, type ClusterOptions } from 'ioredis';
import { AdminPool, parseInfo } from './admin.ts';
import { redisServerBinary, toxiproxyBinary } from './binaries.ts';
import { ClusterUsageError, EnvironmentError } from './errors.ts';
import { promoteReplica } from './failover.ts';
import { healCluster } from './heal.ts';
import { localClusterOptions, type LocalClusterConstraints, type LocalClusterOptions } from './options.ts';
import { freePorts } from './ports.ts';
import { reapedDir, type ReapedDir } from './reaper.ts';
import { RedisNode } from './redis-node.ts';
import { parseClusterNodes, topologyFrom } from './topology.ts';
import { Toxiproxy } from './toxiproxy.ts';
import type { Cluster, FailoverMode, Link, NodeRef, ToxicSpec, Topology } from './types.ts';
import { sleep, waitUntil } from './wait.ts';
import { readinessProblem } from './readiness.ts';
import { RespPoints } from '../resp/point.ts';

const SLOTS = 16384;

/**
 * The embedded default backend: masters + replicas as redis-server children on free loopback ports,
 * each behind three Toxiproxy proxies and a RESP point of the harness's own (see NodePorts). Start with `await LocalCluster.start()`;
 * dispose with `await using` or `dispose()`. Nothing it starts outlives the process (see reaper.ts).
 */
/** A child (Toxiproxy, redis-server) found its port taken between our choosing it and its bind. */
const PORT_CLASH = /address already in use|EADDRINUSE|Failed listening on port/i;
const PORT_CLASH_ATTEMPTS = 4;

export class LocalCluster implements Cluster {
  readonly kind = 'local' as const;
  readonly destructive = true;
  private readonly admin = new AdminPool();
  private disposed = false;

  private constructor(
    readonly options: LocalClusterOptions,
    private readonly dir: ReapedDir,
    private readonly toxiproxy: Toxiproxy,
    private readonly redisNodes: readonly RedisNode[],
    private readonly points: RespPoints,
  ) {}

  /** The RESP points in front of the client proxies (clients -> RESP point -> Toxiproxy -> redis-server). */
  get commands(): RespPoints {
    return this.points;
  }

  get nodes(): readonly NodeRef[] {
    return this.redisNodes.map((n) => n.ref);
  }

  /** The run's temp dir (logs, nodes.conf); removed on dispose. */
  get directory(): string {
    return this.dir.dir;
  }

  /**
   * Start a cluster on free ports. Ports are free when chosen but another process (a second harness on
   * the machine) can bind one before our child does: a start that fails on a port already in use is
   * torn down and tried again on new ports, a few times, before it counts as an environment failure.
   */
  static async start(constraints: LocalClusterConstraints = {}): Promise<LocalCluster> {
    const options = localClusterOptions(constraints);
    for (let attempt = 1; ; attempt++) {
      try {
        return await LocalCluster.startOnce(options);
      } catch (error) {
        if (attempt >= PORT_CLASH_ATTEMPTS || !PORT_CLASH.test((error as Error).message)) throw error;
      }
    }
  }

  private static async startOnce(options: LocalClusterOptions): Promise<LocalCluster> {
    const redisBin = redisServerBinary();
    const toxiBin = toxiproxyBinary();
    const total = options.masters * (1 + options.replicasPerMaster);
    const dir = reapedDir('chaoslua-cluster');
    let cluster: LocalCluster | undefined;
    let points: RespPoints | undefined;
    try {
      const ports = await freePorts(1 + total * 6);
      const toxiproxy = await Toxiproxy.start(toxiBin, dir, ports[0], options.seed);
      const nodes = Array.from({ length: total }, (_, i) => {
        const [direct, bus, internal, internalBus, client, point] = ports.slice(1 + i * 6, 7 + i * 6);
        return new RedisNode(i, { direct, bus, internal, internalBus, client, point }, redisBin, dir, options);
      });
      await toxiproxy.createProxies(
        nodes.flatMap((n) => [
          { name: `${n.ref.name}-internal`, listen: `127.0.0.1:${n.ports.internal}`, upstream: n.ref.direct },
          { name: `${n.ref.name}-bus`, listen: `127.0.0.1:${n.ports.internalBus}`, upstream: `127.0.0.1:${n.ports.bus}` },
          { name: `${n.ref.name}-client`, listen: `127.0.0.1:${n.ports.client}`, upstream: n.ref.direct },
        ]),
      );
      points = await RespPoints.start(nodes.map((n) => ({ node: n.ref.name, listen: n.ports.point, address: { host: '127.0.0.1', port: n.ports.client } })));
      cluster = new LocalCluster(options, dir, toxiproxy, nodes, points);
      await cluster.create();
      return cluster;
    } catch (error) {
      cluster?.admin.close();
      await points?.close();
      dir.destroy();
      if (error instanceof EnvironmentError) throw error;
      throw new EnvironmentError(`local cluster did not start: ${(error as Error).message}`);
    }
  }

  /** Form the cluster: slots on masters, one MEET round, replicas attached, then wait for ready. */
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
    // Distinct epochs up front spare the cluster its own collision-resolution round.
    await Promise.all(this.redisNodes.map((n, i) => this.direct(n, 'CLUSTER', 'SET-CONFIG-EPOCH', i + 1)));
    const [first, ...rest] = this.redisNodes;
    for (const n of rest) await this.direct(first, 'CLUSTER', 'MEET', '127.0.0.1', n.ports.internal, n.ports.internalBus);
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
      this.redisNodes.slice(masters).map((n, i) => this.retryReplicate(n, ids[i % masters])),
    );
    await this.waitReady();
  }

  /** CLUSTER REPLICATE fails until the replica has learnt the master's role by gossip. */
  private async retryReplicate(node: RedisNode, masterId: string): Promise<void> {
    await waitUntil(
      `${node.ref.name} replicating ${masterId.slice(0, 8)}`,
      async () => {
        await this.direct(node, 'CLUSTER', 'REPLICATE', masterId);
        return true;
      },
      this.options.readyTimeoutMs,
    );
  }

  private async waitForPing(node: RedisNode): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      node.assertAlive();
      if ((await this.direct(node, 'PING').catch(() => undefined)) === 'PONG') {
        // Another harness's server may answer on this port (ours then fails to bind): never talk to it.
        const pid = parseInfo(String(await this.direct(node, 'INFO', 'server'))).process_id;
        if (Number(pid) === node.pid) return;
        throw new EnvironmentError(`redis-server ${node.ref.name}: port ${node.ports.direct} is answered by another process (pid ${pid}): address already in use`);
      }
      await sleep(10);
    }
    throw new EnvironmentError(`redis-server ${node.ref.name} did not answer PING on port ${node.ports.direct} within 10 s`);
  }

  private direct(node: RedisNode, ...args: (string | number)[]): Promise<unknown> {
    return this.admin.call('127.0.0.1', node.ports.direct, args);
  }

  /** Ready: every slot covered and agreed on, every replica linked to its master, every proxy answering. */
  async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    await waitUntil(
      'cluster ready',
      () => readinessProblem(this.redisNodes, this.options.replicasPerMaster, (n, ...a) => this.direct(n, ...a), (n) => this.admin.call('127.0.0.1', n.ports.point, ['PING'])),
      timeoutMs,
    );
  }

  // ---- Cluster interface -------------------------------------------------------------------

  seeds(): { host: string; port: number }[] {
    return this.redisNodes.map((n) => ({ host: '127.0.0.1', port: n.ports.point }));
  }

  natMap(): Record<string, { host: string; port: number }> {
    return Object.fromEntries(this.redisNodes.map((n) => [n.ref.announced, { host: '127.0.0.1', port: n.ports.point }]));
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
    await promoteReplica(this.node(replica), mode, this.redisNodes, (n, ...args) => this.direct(n, ...args), this.options.nodeTimeoutMs);
  }

  async freeze(node: number): Promise<void> {
    const n = this.running(node, 'freeze');
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

  async toxic(node: number, link: Link, spec: ToxicSpec): Promise<void> {
    await this.toxiproxy.addToxic(`${this.node(node).ref.name}-${link}`, spec);
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    await this.toxiproxy.setEnabled(`${this.node(node).ref.name}-${link}`, enabled);
  }

  heal(): Promise<void> {
    return healCluster(this.toxiproxy, this.redisNodes, this);
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

  private node(index: number): RedisNode {
    const node = this.redisNodes[index];
    if (!node) throw new ClusterUsageError(`no node ${index}: this cluster has nodes 0-${this.redisNodes.length - 1}`);
    return node;
  }

  private running(index: number, what: string): RedisNode {
    const node = this.node(index);
    if (node.status !== 'running') throw new ClusterUsageError(`${what}: ${node.ref.name} is ${node.status}`);
    return node;
  }

  /** Process-level facts for the node table and teardown checks. */
  processes(): { name: string; pid: number | undefined; status: string; ports: RedisNode['ports'] }[] {
    return this.redisNodes.map((n) => ({ name: n.ref.name, pid: n.process?.pid, status: n.status, ports: n.ports }));
  }

  get toxiproxyPid(): number | undefined {
    return this.toxiproxy.process.pid;
  }

  get toxiproxyApi(): string {
    return `127.0.0.1:${this.toxiproxy.apiPort}`;
  }

  toString(): string {
    return `local cluster ${this.options.masters}+${this.options.masters * this.options.replicasPerMaster} (node timeout ${this.options.nodeTimeoutMs} ms)`;
  }
}
