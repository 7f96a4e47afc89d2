import type { Cluster as IORedisCluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import type { ClockSetting } from '../clock/page.ts';
import type { FailoverMode, Link } from '../plan/schedule.ts';
import type { CommandFaults } from '../resp/point.ts';
import type { Partitions } from './netns/partitions.ts';

// The plan names failover modes and links; a cluster carries them out.
export type { FailoverMode, Link };

/**
 * A Redis Cluster chaoslua can drive: the embedded LocalCluster (default), a ComposeCluster
 * (Docker), or an ExternalCluster (seed addresses). Started objects dispose themselves.
 */
export interface NodeRef {
  /** Stable index, 0-based, in start order. */
  readonly index: number;
  /** Short name used in reports: "n0". */
  readonly name: string;
  /** Address the cluster announces for this node (host:port of its internal proxy). */
  readonly announced: string;
  /** Address harness clients dial (its RESP point, else its client proxy, or the node itself). */
  readonly client: string;
  /** Direct address of the redis-server, bypassing every proxy (control plane only). */
  readonly direct: string;
}

export interface NodeState {
  readonly node: NodeRef;
  readonly id: string;
  readonly role: 'master' | 'replica';
  /** For replicas: the index of the master it follows. */
  readonly masterIndex: number | null;
  /** Slot ranges served, as [from, to] inclusive (masters only). */
  readonly slots: readonly (readonly [number, number])[];
  readonly flags: readonly string[];
}

export interface Topology {
  readonly nodes: readonly NodeState[];
  /** "n0 master 0-5460 <- n3 | n1 master 5461-10922 <- n4 | ..." */
  toString(): string;
}

/** A Toxiproxy toxic, as its HTTP API takes it. */
export interface ToxicSpec {
  readonly type: 'latency' | 'timeout' | 'reset_peer' | 'slicer' | 'limit_data' | 'bandwidth' | 'slow_close';
  readonly stream?: 'upstream' | 'downstream';
  readonly toxicity?: number;
  readonly attributes: Readonly<Record<string, number>>;
}

/** Each node's wall clock, moved while the node runs (its monotonic clock, Redis's timers', never moves). */
export interface ServerClocks {
  set(node: number, setting: ClockSetting): void;
  /** How far ahead of true node `node`'s wall clock reads now, ms (negative: behind). */
  offsetMs(node: number): number;
  /** Every clock true. */
  reset(): void;
}

export interface Cluster extends AsyncDisposable {
  readonly kind: 'local' | 'compose' | 'external' | 'netns';
  /** Whether faults that destroy state or availability are allowed. Always true for local. */
  readonly destructive: boolean;
  readonly nodes: readonly NodeRef[];
  /** Seed addresses for any client, in any language (client proxies). */
  seeds(): { host: string; port: number }[];
  /** ioredis natMap: announced "host:port" -> what a client should dial. */
  natMap(): Record<string, { host: string; port: number }>;
  /** A new ioredis Cluster client wired with seeds and natMap (RESP2). The caller quits it. Refused
   *  (throws ClusterUsageError) where there is no Redis Cluster: topologyKind 'masters'. */
  connect(options?: ClusterOptions): IORedisCluster;
  /**
   * The deployment's shape. Absent or 'cluster': a Redis Cluster. 'masters': independent standalone
   * masters (Redlock's deployment, ./masters.ts), each holding every key, where `connect()` is refused
   * and `masterClients()` gives one client per master. 'sentinel': a primary with replicas under
   * Sentinel (./sentinel.ts), where `connect()` is refused and `sentinelClient()` finds the primary.
   * Optional, so the cluster backends say nothing.
   */
  readonly topologyKind?: 'cluster' | 'masters' | 'sentinel';
  /** The container image the nodes run, on a backend that runs them in containers (compose): the
   *  certificate names it beside the server's version, since the tag alone may not say where it came from. */
  readonly image?: string;
  /** One standalone client per master, in node order, through its client link (topologyKind 'masters' only). The caller quits them. */
  masterClients?(options?: RedisOptions): Redis[];
  /** topologyKind 'sentinel' (./sentinel.ts): the Sentinels' addresses and the name they watch the primary by. */
  sentinels?(): { host: string; port: number }[];
  readonly sentinelName?: string;
  /** A client finding the primary through the Sentinels (ioredis `{ sentinels, name }`, natMap set). The caller quits it. */
  sentinelClient?(options?: RedisOptions): Redis;
  /** How many times the primary has been failed over so far (Sentinel's config epoch): a fault across
   *  which it rose may have lost acknowledged writes, whatever the fault was. Absent: not tracked. */
  failoverEpoch?(): Promise<number>;
  /** Run a command directly on one node (control plane; bypasses proxies). */
  command(node: number, ...args: (string | number)[]): Promise<unknown>;
  topology(): Promise<Topology>;
  redisVersion(): Promise<string>;

  failover(replica: number, mode: FailoverMode): Promise<void>;
  freeze(node: number): Promise<void>;
  thaw(node: number): Promise<void>;
  kill(node: number): Promise<void>;
  restart(node: number): Promise<void>;
  scriptFlush(): Promise<void>;
  toxic(node: number, link: Link, spec: ToxicSpec): Promise<void>;
  setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void>;
  /** Command-aware faults on the client links (a RESP point in front of each client proxy); absent
   *  on a backend without them. heal() leaves their rules alone: whoever arms a rule disarms it. */
  readonly commands?: CommandFaults;
  /** The nodes' wall clocks, on a backend whose servers run under the clock preload (local, netns);
   *  absent elsewhere (a server someone else runs keeps its own clock). heal() sets every one true. */
  readonly clocks?: ServerClocks;
  /** Partitions between nodes (Jepsen's grudges); only the netns backend has them. heal() lifts them. */
  readonly partitions?: Partitions;
  /** Remove every toxic, enable every proxy, thaw and restart every node, wait until ready. Throws if it cannot. */
  heal(): Promise<void>;
  dispose(): Promise<void>;
  toString(): string;
}
