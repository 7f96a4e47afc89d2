/**
 * N independent masters (Redlock's deployment): standalone redis-servers, no cluster mode and no
 * replication, each on a loopback port behind a Toxiproxy client proxy and a RESP point, under the
 * clock preload like every server the harness starts, and reaped like the others (./reaper.ts).
 *
 * How it fits the Cluster interface, with the least damage to the rest: it is a StandaloneCluster
 * (./standalone.ts), so freeze, thaw, kill, restart, SCRIPT FLUSH, the clocks, heal and dispose are
 * the ones the cluster backends use, not copies; its `kind` stays 'local' (it is started on this
 * machine) and a `topologyKind` of 'masters' says what differs. What has no meaning here is refused
 * in one line rather than faked: connect() (there is no Redis Cluster to route a key to; subjects take
 * `masterClients()`, one client per master, as Redlock's users hold one client per server) and
 * failover() (no replica). topology() says every node is a master; which faults may run is decided
 * in one place (src/certify/partition-faults.ts).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { redisServerBinary, toxiproxyBinary } from './binaries.ts';
import { ClusterUsageError } from './errors.ts';
import { localClusterOptions, type LocalClusterOptions } from './options.ts';
import { freePorts, startOnFreePorts } from './ports.ts';
import { ProcessCluster } from './process-cluster.ts';
import { reapedDir, type ReapedDir } from './reaper.ts';
import {
  countIn,
  SLOTS,
  StandaloneCluster,
  StandaloneNode,
  type StandaloneLink,
  type StandalonePorts,
} from './standalone.ts';
import { Toxiproxy } from './toxiproxy.ts';
import type { NodeState, Topology } from './types.ts';
import { waitUntil } from './wait.ts';
import type { RespPoints } from '../resp/point.ts';
import { MASTERS } from '../plan/topology.ts';

/** An independent master has no replication or bus link: only its client link is proxied. */
const LINKS: readonly StandaloneLink[] = ['client'];

/** What a caller may set on independent masters; checked once, here. */
export interface MastersConstraints {
  /** How many masters. Default 5 (MASTERS.default). */
  count?: number;
  /** Only sizes the node faults' durations here (a freeze shorter or longer than it): no failover exists. */
  nodeTimeoutMs?: number;
  readyTimeoutMs?: number;
  /** Seed of Toxiproxy's toxicity randomness. */
  seed?: number;
  /** The server binary, as `--server` resolved it. */
  redisServer?: string;
}

/** One standalone redis-server on loopback: no cluster mode, nothing replicated; it announces its RESP point. */
export class MasterNode extends StandaloneNode {
  constructor(index: number, ports: StandalonePorts, binary: string, dir: ReapedDir, options: LocalClusterOptions) {
    super(index, ports, `127.0.0.1:${ports.point}`, binary, dir, options);
  }
}

export class MastersCluster extends StandaloneCluster<MasterNode> {
  readonly topologyKind = 'masters' as const;
  protected readonly links = LINKS;
  protected readonly clientsBy = 'masterClients(), one client per master';

  private constructor(
    options: LocalClusterOptions,
    dir: ReapedDir,
    toxiproxy: Toxiproxy,
    nodes: readonly MasterNode[],
    points: RespPoints,
  ) {
    super(options, dir, toxiproxy, nodes, points);
  }

  /** Start `count` masters on free ports; a start that meets a port taken meanwhile is tried again on new ports. */
  static async start(constraints: MastersConstraints = {}): Promise<MastersCluster> {
    const count = countIn('MastersCluster.start: count', constraints.count ?? MASTERS.default, MASTERS);
    const { nodeTimeoutMs, readyTimeoutMs, seed, redisServer } = constraints;
    const options = localClusterOptions({
      nodeTimeoutMs,
      readyTimeoutMs,
      seed,
      redisServer,
      masters: count,
      replicasPerMaster: 0,
    });
    return startOnFreePorts(() => MastersCluster.startOnce(options));
  }

  private static startOnce(options: LocalClusterOptions): Promise<MastersCluster> {
    const redisBin = options.redisServer ?? redisServerBinary();
    const dir = reapedDir('chaoslua-masters');
    return ProcessCluster.started('masters', dir, async (opened) => {
      const ports = await freePorts(1 + options.masters * 3);
      const toxiproxy = await Toxiproxy.start(toxiproxyBinary(), dir, ports[0], options.seed);
      const nodes = Array.from({ length: options.masters }, (_, i) => {
        const [direct, client, point] = ports.slice(1 + i * 3, 4 + i * 3);
        return new MasterNode(i, { direct, client, point }, redisBin, dir, options);
      });
      opened.points = await MastersCluster.proxied(toxiproxy, nodes, LINKS);
      return new MastersCluster(options, dir, toxiproxy, nodes, opened.points);
    });
  }

  /** Up: every master answers PING directly and through its client link. */
  protected override async create(): Promise<void> {
    for (const node of this.redisNodes) node.start();
    await Promise.all(this.redisNodes.map((n) => this.waitForPing(n)));
    await this.waitReady();
  }

  override async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    await waitUntil(
      'masters ready',
      async () => {
        for (const n of this.redisNodes) {
          if (n.status !== 'running') return `${n.ref.name} is ${n.status}`;
          if ((await this.direct(n, 'PING').catch((e: Error) => e.message)) !== 'PONG')
            return `${n.ref.name} not answering`;
          if ((await this.admin.call('127.0.0.1', n.ports.point, ['PING']).catch((e: Error) => e.message)) !== 'PONG')
            return `client link of ${n.ref.name} not answering`;
        }
        return true;
      },
      timeoutMs,
    );
  }

  /** With an `error` listener, as quiet() gives the cluster clients: every error that matters reaches its command. */
  masterClients(options: RedisOptions = {}): Redis[] {
    return this.redisNodes.map((n) =>
      new Redis({ ...options, host: '127.0.0.1', port: n.ports.point }).on('error', () => undefined),
    );
  }

  /**
   * Every node a master. Each holds every key; but a fault is aimed at "the master of a key's slot",
   * so the slots are dealt out among the masters as a cluster deals them: the faults of a run land
   * on one master or another by its keys, never on every master at once.
   */
  override async topology(): Promise<Topology> {
    const per = Math.floor(SLOTS / this.redisNodes.length);
    const nodes: NodeState[] = this.redisNodes.map((n, i) => ({
      node: n.ref,
      id: n.ref.name,
      role: 'master',
      masterIndex: null,
      slots: [[i * per, i === this.redisNodes.length - 1 ? SLOTS - 1 : (i + 1) * per - 1]],
      flags: [],
    }));
    const text = `${nodes.length} independent masters ${nodes.map((n) => n.node.name).join(',')} (no cluster, no replicas)`;
    return { nodes, toString: () => text };
  }

  override failover(replica: number): Promise<void> {
    return Promise.reject(new ClusterUsageError(`${this}: n${replica} is a master with no replica to fail over to`));
  }

  processes(): { name: string; pid: number | undefined; status: string }[] {
    return this.redisNodes.map((n) => ({ name: n.ref.name, pid: n.process?.pid, status: n.status }));
  }

  override toString(): string {
    return `${this.redisNodes.length} independent masters`;
  }
}
