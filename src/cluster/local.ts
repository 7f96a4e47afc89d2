import { binaryVersion, redisServerBinary, toxiproxyBinary } from './binaries.ts';
import { localClusterOptions, type LocalClusterConstraints, type LocalClusterOptions } from './options.ts';
import { freePorts, isPortFree, startOnFreePorts } from './ports.ts';
import { ProcessCluster, type NodeAddress } from './process-cluster.ts';
import { reapedDir, type ReapedDir } from './reaper.ts';
import { RedisNode } from './redis-node.ts';
import { Toxiproxy } from './toxiproxy.ts';
import type { Link, ToxicSpec } from './types.ts';
import { RespPoints } from '../resp/point.ts';

/**
 * Redis before 7.0 has no `cluster-port`: its bus listens on its port + 10000, whatever it is told
 * (server-process.ts then leaves the setting out). The binary's own `--version` says which it is.
 */
function busPortFixed(binary: string): boolean {
  const v = binaryVersion(binary);
  return 'major' in v && v.major < 7;
}

/** Each node's bus slot set to its port + 10000; one taken there is a port clash, which start() retries on new ports. */
async function fixBusPorts(ports: number[], total: number): Promise<void> {
  for (let i = 0; i < total; i++) {
    const direct = ports[1 + i * 6];
    ports[2 + i * 6] = direct + 10_000;
    if (!(await isPortFree(direct + 10_000)))
      throw new Error(`cluster bus port ${direct + 10_000} of a Redis 6 node: address already in use`);
  }
}

/**
 * The embedded default backend: masters + replicas as redis-server children on free loopback ports,
 * each behind three Toxiproxy proxies and a RESP point of the harness's own (see NodePorts): the
 * internal and bus proxies carry replication and gossip, so link faults between nodes are Toxiproxy's
 * too. Start with `await LocalCluster.start()`; dispose with `await using` or `dispose()`. Nothing it
 * starts outlives the process (see reaper.ts).
 */
export class LocalCluster extends ProcessCluster<RedisNode> {
  readonly kind = 'local' as const;

  private constructor(
    options: LocalClusterOptions,
    dir: ReapedDir,
    toxiproxy: Toxiproxy,
    nodes: readonly RedisNode[],
    points: RespPoints,
  ) {
    super(options, dir, toxiproxy, nodes, points);
  }

  /**
   * Start a cluster on free ports. Ports are free when chosen but another process (a second harness on
   * the machine) can bind one before our child does: a start that fails on a port already in use is
   * torn down and tried again on new ports, a few times, before it counts as an environment failure.
   */
  static async start(constraints: LocalClusterConstraints = {}): Promise<LocalCluster> {
    const options = localClusterOptions(constraints);
    return startOnFreePorts(() => LocalCluster.startOnce(options));
  }

  private static startOnce(options: LocalClusterOptions): Promise<LocalCluster> {
    const redisBin = options.redisServer ?? redisServerBinary();
    const toxiBin = toxiproxyBinary();
    const total = options.masters * (1 + options.replicasPerMaster);
    const busAtPlus10000 = busPortFixed(redisBin);
    const dir = reapedDir('chaoslua-cluster');
    return ProcessCluster.started('local', dir, async (opened) => {
      const ports = await freePorts(1 + total * 6);
      if (busAtPlus10000) await fixBusPorts(ports, total);
      const toxiproxy = await Toxiproxy.start(toxiBin, dir, ports[0], options.seed);
      const nodes = Array.from({ length: total }, (_, i) => {
        const [direct, bus, internal, internalBus, client, point] = ports.slice(1 + i * 6, 7 + i * 6);
        return new RedisNode(i, { direct, bus, internal, internalBus, client, point }, redisBin, dir, options);
      });
      await toxiproxy.createProxies(
        nodes.flatMap((n) => [
          { name: `${n.ref.name}-internal`, listen: `127.0.0.1:${n.ports.internal}`, upstream: n.ref.direct },
          {
            name: `${n.ref.name}-bus`,
            listen: `127.0.0.1:${n.ports.internalBus}`,
            upstream: `127.0.0.1:${n.ports.bus}`,
          },
          { name: `${n.ref.name}-client`, listen: `127.0.0.1:${n.ports.client}`, upstream: n.ref.direct },
        ]),
      );
      opened.points = await RespPoints.start(
        nodes.map((n) => ({
          node: n.ref.name,
          listen: n.ports.point,
          address: { host: '127.0.0.1', port: n.ports.client },
        })),
      );
      return new LocalCluster(options, dir, toxiproxy, nodes, opened.points);
    });
  }

  protected control(node: RedisNode): { host: string; port: number } {
    return { host: '127.0.0.1', port: node.ports.direct };
  }

  /** Nodes meet at their internal proxies, so replication and gossip cross Toxiproxy. */
  protected meet(node: RedisNode): NodeAddress {
    return { host: '127.0.0.1', port: node.ports.internal, busPort: node.ports.internalBus };
  }

  async toxic(node: number, link: Link, spec: ToxicSpec): Promise<void> {
    await this.toxiproxy.addToxic(`${this.node(node).ref.name}-${link}`, spec);
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    await this.toxiproxy.setEnabled(`${this.node(node).ref.name}-${link}`, enabled);
  }

  /** Process-level facts for the node table and teardown checks. */
  processes(): { name: string; pid: number | undefined; status: string; ports: RedisNode['ports'] }[] {
    return this.redisNodes.map((n) => ({ name: n.ref.name, pid: n.process?.pid, status: n.status, ports: n.ports }));
  }

  get toxiproxyApi(): string {
    return `127.0.0.1:${this.toxiproxy.apiPort}`;
  }

  override toString(): string {
    return `local cluster ${this.options.masters}+${this.options.masters * this.options.replicasPerMaster} (node timeout ${this.options.nodeTimeoutMs} ms)`;
  }
}
