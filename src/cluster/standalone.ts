/**
 * What the topologies without Redis Cluster share (independent masters, a Sentinel deployment):
 * standalone redis-servers on loopback, each driven on its own port, reached by clients through a
 * Toxiproxy client proxy and a RESP point, and refusing what only a Redis Cluster means (connect(),
 * meeting). A topology adds its links, its topology() and its readiness; everything else here is
 * written once, so a fourth standalone topology starts from this and not from a copy.
 */
import { ClusterUsageError } from './errors.ts';
import type { LocalClusterOptions } from './options.ts';
import { ProcessCluster, type NodeAddress } from './process-cluster.ts';
import type { ReapedDir } from './reaper.ts';
import { ServerProcess, type ServerAddress } from './server-process.ts';
import type { Toxiproxy } from './toxiproxy.ts';
import type { Link, ToxicSpec } from './types.ts';
import { RespPoints } from '../resp/point.ts';

/** Redis Cluster's slot count: a standalone topology deals these out in topology() so faults aimed at "a key's master" land. */
export const SLOTS = 16384;

/** The proxied links a standalone node may have: what clients reach, and what its replicas and Sentinels reach. */
export type StandaloneLink = Extract<Link, 'client' | 'internal'>;

/** A standalone node's ports: its own, then one per proxied link, then the RESP point in front of the client proxy. */
export interface StandalonePorts {
  readonly direct: number;
  readonly client: number;
  readonly point: number;
  readonly internal?: number;
}

/** One standalone redis-server (no cluster mode), named n<index>, announcing `announced`. */
export abstract class StandaloneNode<P extends StandalonePorts = StandalonePorts> extends ServerProcess {
  protected readonly address: ServerAddress;
  protected readonly where: string;
  protected override readonly clustered = false;

  protected constructor(
    index: number,
    readonly ports: P,
    announced: string,
    private readonly binary: string,
    dir: ReapedDir,
    options: LocalClusterOptions,
  ) {
    super(
      index,
      { index, name: `n${index}`, announced, client: `127.0.0.1:${ports.point}`, direct: `127.0.0.1:${ports.direct}` },
      dir,
      options,
    );
    // busPort at port + 10000 keeps cluster-port out of the arguments; no bus listens in standalone mode.
    this.address = { port: ports.direct, bind: '127.0.0.1', busPort: ports.direct + 10_000, announceIp: '127.0.0.1' };
    this.where = `port ${ports.direct}`;
  }

  protected launch(args: string[]): [string, string[]] {
    return [this.binary, args];
  }
}

/** `value` if it is an integer in the range, else a RangeError naming `what` (checked once, at start). */
export function countIn(what: string, value: number, range: { readonly min: number; readonly max: number }): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max)
    throw new RangeError(`${what} must be an integer in [${range.min}, ${range.max}], got ${String(value)}`);
  return value;
}

export abstract class StandaloneCluster<N extends StandaloneNode> extends ProcessCluster<N> {
  readonly kind = 'local' as const;
  /** The links this topology proxies; a toxic or a cut drawn on another link has nothing to act on. */
  protected abstract readonly links: readonly StandaloneLink[];
  /** How a client reaches this topology instead of connect(), named in its refusal. */
  protected abstract readonly clientsBy: string;

  /**
   * Each node's proxies (`n<i>-<link>` -> its own port) and the RESP points in front of the client
   * proxies; the points are handed back so ProcessCluster.started can close them if a later step fails.
   */
  protected static async proxied(
    toxiproxy: Toxiproxy,
    nodes: readonly StandaloneNode[],
    links: readonly StandaloneLink[],
  ): Promise<RespPoints> {
    await toxiproxy.createProxies(
      nodes.flatMap((n) =>
        links.map((link) => ({
          name: `${n.ref.name}-${link}`,
          listen: `127.0.0.1:${portOf(n, link)}`,
          upstream: n.ref.direct,
        })),
      ),
    );
    return RespPoints.start(
      nodes.map((n) => ({
        node: n.ref.name,
        listen: n.ports.point,
        address: { host: '127.0.0.1', port: n.ports.client },
      })),
    );
  }

  protected control(node: N): { host: string; port: number } {
    return { host: '127.0.0.1', port: node.ports.direct };
  }

  protected meet(): NodeAddress {
    throw new ClusterUsageError(`${this} meets nobody: it forms no cluster`);
  }

  override connect(): never {
    throw new ClusterUsageError(`${this}: there is no Redis Cluster to connect to (use ${this.clientsBy})`);
  }

  async toxic(node: number, link: Link, spec: ToxicSpec): Promise<void> {
    if (this.proxies(link)) await this.toxiproxy.addToxic(`${this.node(node).ref.name}-${link}`, spec);
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    if (this.proxies(link)) await this.toxiproxy.setEnabled(`${this.node(node).ref.name}-${link}`, enabled);
  }

  private proxies(link: Link): boolean {
    return (this.links as readonly Link[]).includes(link);
  }
}

function portOf(node: StandaloneNode, link: StandaloneLink): number {
  const port = link === 'client' ? node.ports.client : node.ports.internal;
  if (port === undefined) throw new Error(`${node.ref.name} has no ${link} port`);
  return port;
}
