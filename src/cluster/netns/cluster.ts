import { redisServerBinary, toxiproxyBinary } from '../binaries.ts';
import { ClusterUsageError } from '../errors.ts';
import { localClusterOptions, type LocalClusterConstraints, type LocalClusterOptions } from '../options.ts';
import { freePorts } from '../ports.ts';
import { ProcessCluster, type NodeAddress } from '../process-cluster.ts';
import { reapedDir, type ReapedDir } from '../reaper.ts';
import { Toxiproxy } from '../toxiproxy.ts';
import type { Link, ToxicSpec } from '../types.ts';
import { RespPoints } from '../../resp/point.ts';
import { netnsTools } from './host.ts';
import { PeerLinks } from './links.ts';
import type { Partitions } from './partitions.ts';
import { NetnsNetwork } from './network.ts';
import { BUS_PORT, NetnsNode, REDIS_PORT } from './node.ts';

/**
 * `--cluster netns`: every redis-server in a network namespace of its own, joined to a bridge by a
 * veth pair, at its own address; the harness, Toxiproxy's client proxies and the RESP points stay in
 * the root namespace. Nodes replicate and gossip over the bridge directly, so a partition between
 * two nodes is real (nftables in their namespaces, see PeerLinks) while every node stays reachable to
 * the clients — the one failure Toxiproxy in front of a node cannot make: an isolated master that
 * keeps acknowledging writes until cluster-node-timeout while the majority promotes its replica.
 * Same options as LocalCluster. Needs root, `ip`, `nft` and `tc`.
 */
export class NetnsCluster extends ProcessCluster<NetnsNode> {
  readonly kind = 'netns' as const;

  private constructor(
    options: LocalClusterOptions,
    dir: ReapedDir,
    readonly network: NetnsNetwork,
    toxiproxy: Toxiproxy,
    nodes: readonly NetnsNode[],
    points: RespPoints,
    readonly links: PeerLinks,
  ) {
    super(options, dir, toxiproxy, nodes, points);
  }

  /** Partitions between nodes: Jepsen's grudge, healed by heal(). */
  get partitions(): Partitions {
    return this.links;
  }

  static start(constraints: LocalClusterConstraints = {}): Promise<NetnsCluster> {
    const options = localClusterOptions(constraints);
    const tools = netnsTools();
    const redisBin = options.redisServer ?? redisServerBinary();
    const toxiBin = toxiproxyBinary();
    const total = options.masters * (1 + options.replicasPerMaster);
    const dir = reapedDir('chaoslua-netns');
    return ProcessCluster.started('netns', dir, async (opened) => {
      const network = NetnsNetwork.create(tools, dir, total);
      const ports = await freePorts(1 + total * 2);
      const toxiproxy = await Toxiproxy.start(toxiBin, dir, ports[0], options.seed);
      const nodes = network.nodes.map(
        (net, i) =>
          new NetnsNode(
            i,
            net,
            { client: ports[1 + i * 2], point: ports[2 + i * 2] },
            tools.ip,
            redisBin,
            dir,
            options,
          ),
      );
      await toxiproxy.createProxies(
        nodes.map((n) => ({
          name: `${n.ref.name}-client`,
          listen: `127.0.0.1:${n.ports.client}`,
          upstream: n.ref.direct,
        })),
      );
      opened.points = await RespPoints.start(
        nodes.map((n) => ({
          node: n.ref.name,
          listen: n.ports.point,
          address: { host: '127.0.0.1', port: n.ports.client },
        })),
      );
      return new NetnsCluster(
        options,
        dir,
        network,
        toxiproxy,
        nodes,
        opened.points,
        new PeerLinks(tools, network.nodes, network.hostIp),
      );
    });
  }

  protected control(node: NetnsNode): { host: string; port: number } {
    return { host: node.net.ip, port: REDIS_PORT };
  }

  /** Nodes meet at their own addresses: gossip and replication go over the bridge, where partitions cut them. */
  protected meet(node: NetnsNode): NodeAddress {
    return { host: node.net.ip, port: REDIS_PORT, busPort: BUS_PORT };
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
    if (spec.type === 'latency')
      return this.links.delay(node, spec.attributes.latency ?? 0, spec.attributes.jitter ?? 0);
    if (spec.type === 'reset_peer') return this.links.refuse(node);
    if (spec.type === 'timeout') {
      const grudge = new Map(this.links.current);
      grudge.set(node, [
        ...new Set([...(grudge.get(node) ?? []), ...this.redisNodes.map((_, j) => j).filter((j) => j !== node)]),
      ]);
      return this.links.cut(grudge);
    }
    throw new ClusterUsageError(
      `toxic: a ${spec.type} toxic on the ${link} link is not available on the netns backend`,
    );
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    if (link !== 'client')
      throw new ClusterUsageError(`setProxyEnabled: the netns backend has a proxy on the client link only`);
    await this.toxiproxy.setEnabled(`${this.node(node).ref.name}-client`, enabled);
  }

  /** Partitions, refusals and delays lifted first, so the rest of heal finds a connected cluster. */
  override async heal(): Promise<void> {
    await this.links.heal();
    await super.heal();
  }

  /** Process-level facts for the teardown checks. */
  processes(): { name: string; pid: number | undefined; status: string; namespace: string }[] {
    return this.redisNodes.map((n) => ({
      name: n.ref.name,
      pid: n.process?.pid,
      status: n.status,
      namespace: n.net.namespace,
    }));
  }

  override toString(): string {
    return `netns cluster ${this.options.masters}+${this.options.masters * this.options.replicasPerMaster} (node timeout ${this.options.nodeTimeoutMs} ms, ${this.network})`;
  }
}
