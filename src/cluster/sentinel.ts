/**
 * A primary with R replicas under three Sentinels (Redis's own high availability without Cluster):
 * standalone redis-servers and `--sentinel` servers of the same binary, all under the clock preload
 * and reaped like every other child (./reaper.ts). Each data node sits behind an internal proxy (what
 * it announces: replication and the Sentinels' links cross it) and a client proxy with a RESP point
 * (what clients reach, through natMap), as the cluster's nodes do. Clients find the primary through
 * the Sentinels (`sentinelClient()`: ioredis `{ sentinels, name }`), which are not proxied: a fault
 * is aimed at a data node, never at a Sentinel.
 *
 * How it fits the Cluster interface: a StandaloneCluster (./standalone.ts: freeze, thaw, kill,
 * SCRIPT FLUSH, clocks, toxics and dispose are the shared ones) whose `topologyKind` is 'sentinel'.
 * The primary holds every slot in topology(), so a fault aimed at "the master of a key's shard"
 * lands on the primary, and at "its replica" on a replica. failover() is Sentinel's (SENTINEL FAILOVER: Sentinel picks the replica,
 * and no handshake holds writes back, so acknowledged writes may be lost); a node restarted is told
 * whom to replicate, as Sentinel's rewritten config would; heal() waits until the Sentinels agree on
 * a primary every other node follows. connect() is refused: there is no Redis Cluster.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { redisServerBinary, toxiproxyBinary } from './binaries.ts';
import { ClusterUsageError } from './errors.ts';
import { localClusterOptions, type LocalClusterOptions } from './options.ts';
import { freePorts, startOnFreePorts } from './ports.ts';
import { ProcessCluster } from './process-cluster.ts';
import { reapedDir, type ReapedDir } from './reaper.ts';
import {
  SENTINEL_MASTER_NAME,
  SentinelDataNode,
  SentinelProcess,
  sentinelId,
  type SentinelWatch,
} from './sentinel-nodes.ts';
import { primariesNamed, sentinelFields, sentinelReadiness } from './sentinel-ready.ts';
import { countIn, SLOTS, StandaloneCluster, type StandaloneLink } from './standalone.ts';
import { Toxiproxy } from './toxiproxy.ts';
import type { FailoverMode, NodeState, Topology } from './types.ts';
import { sleep, waitUntil } from './wait.ts';
import { parseInfo } from '../resp/info.ts';
import type { RespPoints } from '../resp/point.ts';
import { SENTINEL_REPLICAS, SENTINELS } from '../plan/topology.ts';

/** A data node's client and internal links are proxied; it has no bus. */
const LINKS: readonly StandaloneLink[] = ['internal', 'client'];

/** What a caller may set on a Sentinel deployment; checked once, here. */
export interface SentinelConstraints {
  /** Replicas of the primary. Default 2 (SENTINEL_REPLICAS.default). */
  replicas?: number;
  /** down-after-milliseconds of the Sentinels (the node timeout). */
  nodeTimeoutMs?: number;
  readyTimeoutMs?: number;
  seed?: number;
  redisServer?: string;
}

/** Sentinel's failover-timeout: small, so a failover that stalls is abandoned and tried again within seconds. */
const failoverTimeoutMs = (nodeTimeoutMs: number) => Math.max(3_000, nodeTimeoutMs * 3);

export class SentinelCluster extends StandaloneCluster<SentinelDataNode> {
  readonly topologyKind = 'sentinel' as const;
  protected readonly links = LINKS;
  protected readonly clientsBy = 'sentinelClient(): the primary found through the Sentinels';
  readonly sentinelName = SENTINEL_MASTER_NAME;

  private constructor(
    options: LocalClusterOptions,
    dir: ReapedDir,
    toxiproxy: Toxiproxy,
    nodes: readonly SentinelDataNode[],
    points: RespPoints,
    private readonly watchers: readonly SentinelProcess[],
  ) {
    super(options, dir, toxiproxy, nodes, points);
  }

  static async start(constraints: SentinelConstraints = {}): Promise<SentinelCluster> {
    const replicas = countIn(
      'SentinelCluster.start: replicas',
      constraints.replicas ?? SENTINEL_REPLICAS.default,
      SENTINEL_REPLICAS,
    );
    const { nodeTimeoutMs, readyTimeoutMs, seed, redisServer } = constraints;
    const options = localClusterOptions({
      nodeTimeoutMs,
      readyTimeoutMs,
      seed,
      redisServer,
      masters: 1,
      replicasPerMaster: replicas,
    });
    return startOnFreePorts(() => SentinelCluster.startOnce(options));
  }

  private static startOnce(options: LocalClusterOptions): Promise<SentinelCluster> {
    const binary = options.redisServer ?? redisServerBinary();
    const dir = reapedDir('chaoslua-sentinel');
    const total = 1 + options.replicasPerMaster;
    return ProcessCluster.started('sentinel', dir, async (opened) => {
      const ports = await freePorts(1 + total * 4 + SENTINELS);
      const toxiproxy = await Toxiproxy.start(toxiproxyBinary(), dir, ports[0], options.seed);
      const nodes = Array.from({ length: total }, (_, i) => {
        const [direct, internal, client, point] = ports.slice(1 + i * 4, 5 + i * 4);
        return new SentinelDataNode(i, { direct, internal, client, point }, binary, dir, options);
      });
      for (const replica of nodes.slice(1)) replica.replicaOf = nodes[0].ref.announced;
      const peers = ports.slice(1 + total * 4).map((port) => ({ port, id: sentinelId() }));
      const watch: SentinelWatch = {
        primary: nodes[0].ref.announced,
        replicas: nodes.slice(1).map((n) => n.ref.announced),
        downAfterMs: options.nodeTimeoutMs,
        failoverTimeoutMs: failoverTimeoutMs(options.nodeTimeoutMs),
        peers,
      };
      const watchers = peers.map((p, i) => new SentinelProcess(i, p.port, binary, dir, options, watch));
      opened.points = await SentinelCluster.proxied(toxiproxy, nodes, LINKS);
      return new SentinelCluster(options, dir, toxiproxy, nodes, opened.points, watchers);
    });
  }

  private ask(sentinel: SentinelProcess, ...args: (string | number)[]): Promise<unknown> {
    return this.admin.call('127.0.0.1', sentinel.port, args);
  }

  /** The data nodes up, replicas following the primary, then the Sentinels, then ready. */
  protected override async create(): Promise<void> {
    for (const node of this.redisNodes) node.start();
    await Promise.all(this.redisNodes.map((n) => this.waitForPing(n)));
    for (const s of this.watchers) s.start();
    await Promise.all(
      this.watchers.map((s) =>
        waitUntil(
          `Sentinel ${s.ref.name} answering`,
          async () => {
            s.assertAlive();
            return (await this.ask(s, 'PING')) === 'PONG' || 'no PONG';
          },
          10_000,
        ),
      ),
    );
    await this.waitReady();
  }

  override async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    await waitUntil(
      'Sentinel deployment ready',
      () =>
        sentinelReadiness(
          this.redisNodes,
          this.watchers,
          (n, ...a) => this.direct(n, ...a),
          (s, ...a) => this.ask(s, ...a),
          (n) => this.admin.call('127.0.0.1', n.ports.point, ['PING']),
          async (n, primary) => {
            const [host, port] = primary.split(':');
            await this.direct(n, 'REPLICAOF', host, port);
          },
        ),
      timeoutMs,
    );
  }

  /** The Sentinels' addresses, as a client is given them. */
  sentinels(): { host: string; port: number }[] {
    return this.watchers.map((s) => ({ host: '127.0.0.1', port: s.port }));
  }

  /**
   * A client that finds the primary through the Sentinels (ioredis `{ sentinels, name }`), dialing
   * what they name through natMap (its RESP point), told of a failover by the Sentinels themselves
   * (failoverDetector), and reconnecting when a demoted primary answers READONLY (ioredis's advice
   * for failovers: the refused command is sent again to the new primary; a refused write did nothing).
   */
  sentinelClient(options: RedisOptions = {}): Redis {
    return new Redis({
      sentinels: this.sentinels(),
      name: SENTINEL_MASTER_NAME,
      natMap: this.natMap(),
      failoverDetector: true,
      reconnectOnError: (error) => (/^READONLY/.test(error.message) ? 2 : false),
      ...options,
    }).on('error', () => undefined);
  }

  /** The primary the Sentinels name (the first that answers), as a node index, or undefined. */
  private async primaryIndex(): Promise<number | undefined> {
    const named = (await primariesNamed(this.watchers, (s, ...a) => this.ask(s, ...a))).find(Boolean);
    const index = this.redisNodes.findIndex((n) => n.ref.announced === named);
    return index < 0 ? undefined : index;
  }

  /**
   * The primary holds every slot (a fault aimed at a key's master lands on it), the nodes that follow
   * it are its replicas; a node that calls itself a primary but is not the Sentinels' (an old primary
   * cut off from them) is a master with no slots, flagged `stale`.
   */
  override async topology(): Promise<Topology> {
    const primary = await this.primaryIndex();
    const byAddress = new Map(this.redisNodes.map((n) => [n.ref.announced, n.index]));
    const nodes: NodeState[] = [];
    for (const n of this.redisNodes) {
      const info =
        n.status === 'running'
          ? parseInfo(String(await this.direct(n, 'INFO', 'replication').catch(() => '')))
          : ({} as Record<string, string>);
      const isPrimary = n.index === primary;
      const follows = info.role === 'slave' ? byAddress.get(`${info.master_host}:${info.master_port}`) : undefined;
      nodes.push({
        node: n.ref,
        id: n.ref.name,
        role: isPrimary || info.role === 'master' ? 'master' : 'replica',
        masterIndex: isPrimary ? null : (follows ?? (info.role === 'master' ? null : (primary ?? null))),
        slots: isPrimary ? [[0, SLOTS - 1]] : [],
        flags: [
          ...(!isPrimary && info.role === 'master' ? ['stale'] : []),
          ...(n.status === 'running' ? [] : [n.status]),
        ],
      });
    }
    const name = (i: number | null | undefined) => (i === null || i === undefined ? '?' : this.redisNodes[i].ref.name);
    const followers = nodes.filter((s) => s.role === 'replica' && s.masterIndex === primary).map((s) => s.node.name);
    const stale = nodes.filter((s) => s.flags.includes('stale')).map((s) => `${s.node.name} stale primary`);
    const text = [
      `sentinel:${this.redisNodes.length - 1} ${name(primary)} primary${followers.length ? ` <- ${followers.join(',')}` : ''}`,
      ...stale,
      `${this.watchers.length} sentinels`,
    ].join(' | ');
    return { nodes, toString: () => text };
  }

  /**
   * How many failovers the Sentinels have made: the primary's config epoch, the highest any Sentinel
   * reports (each failover raises it by one). A fault across which it rose moved the primary.
   */
  async failoverEpoch(): Promise<number> {
    const epochs = await Promise.all(
      this.watchers.map(async (s) =>
        Number(
          sentinelFields(await this.ask(s, 'SENTINEL', 'MASTER', SENTINEL_MASTER_NAME).catch(() => []))[
            'config-epoch'
          ] ?? 0,
        ),
      ),
    );
    return Math.max(0, ...epochs.filter(Number.isFinite));
  }

  /**
   * SENTINEL FAILOVER: Sentinel promotes a replica of its choosing (not necessarily `replica`) without
   * asking the primary to hold writes back; asked again while a failover is under way or no replica is
   * fit yet, until the Sentinels agree on a new primary. Only the default mode exists here.
   */
  override async failover(_replica: number, mode: FailoverMode): Promise<void> {
    if (mode !== 'default')
      throw new ClusterUsageError(`${this}: Sentinel has no ${mode} failover (SENTINEL FAILOVER only)`);
    const before = await this.primaryIndex();
    const deadline = Date.now() + Math.max(20_000, this.options.nodeTimeoutMs * 20);
    for (;;) {
      const reply = await this.ask(this.watchers[0], 'SENTINEL', 'FAILOVER', SENTINEL_MASTER_NAME).catch(
        (e: Error) => e.message,
      );
      if (reply === 'OK') break;
      if (Date.now() >= deadline) throw new Error(`SENTINEL FAILOVER refused: ${String(reply)}`);
      await sleep(200);
    }
    await waitUntil(
      'Sentinel failover',
      async () => {
        const named = await primariesNamed(this.watchers, (s, ...a) => this.ask(s, ...a));
        const index = this.redisNodes.findIndex((n) => n.ref.announced === named[0]);
        if (index < 0 || index === before) return `the Sentinels still name ${named[0] || 'nobody'}`;
        if (named.some((p) => p !== named[0])) return `the Sentinels disagree (${named.join(', ')})`;
        return true;
      },
      Math.max(deadline - Date.now(), 1),
    );
  }

  /** Back as Sentinel's rewritten config would bring it: the primary if the Sentinels still name it, else their primary's replica. */
  override async restart(node: number): Promise<void> {
    const n = this.node(node);
    const primary = await this.primaryIndex();
    n.replicaOf = primary === undefined || primary === node ? undefined : this.redisNodes[primary].ref.announced;
    await super.restart(node);
  }

  processes(): { name: string; pid: number | undefined; status: string }[] {
    return [...this.redisNodes, ...this.watchers].map((n) => ({ name: n.ref.name, pid: n.pid, status: n.status }));
  }

  override async dispose(): Promise<void> {
    for (const s of this.watchers) s.clock?.close();
    await super.dispose();
  }

  override toString(): string {
    return `a primary with ${this.redisNodes.length - 1} replicas under ${this.watchers.length} Sentinels`;
  }
}
