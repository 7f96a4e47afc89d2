import type { LocalClusterOptions } from '../options.ts';
import type { ReapedDir } from '../reaper.ts';
import { ServerProcess, type ServerAddress } from '../server-process.ts';
import type { NodeNet } from './network.ts';

/** Every node listens on the same ports, each in its own namespace at its own address. */
export const REDIS_PORT = 6379;
export const BUS_PORT = 16379;

/** The two root-namespace ports in front of a node: its Toxiproxy client proxy and the RESP point before it. */
export interface FrontPorts {
  readonly client: number;
  readonly point: number;
}

/**
 * One redis-server in cluster mode inside its node's namespace (`ip netns exec`, which execs, so the
 * pid is the server's and the reaper's pdeathsig holds). It announces its own address: replication
 * and gossip go straight from namespace to namespace over the bridge, where partitions cut them.
 */
export class NetnsNode extends ServerProcess {
  protected readonly address: ServerAddress;
  protected readonly where: string;

  constructor(
    index: number,
    readonly net: NodeNet,
    readonly ports: FrontPorts,
    private readonly ip: string,
    private readonly binary: string,
    dir: ReapedDir,
    options: LocalClusterOptions,
  ) {
    const at = `${net.ip}:${REDIS_PORT}`;
    super(
      index,
      { index, name: `n${index}`, announced: at, client: `127.0.0.1:${ports.point}`, direct: at },
      dir,
      options,
    );
    this.address = { port: REDIS_PORT, bind: net.ip, busPort: BUS_PORT, announceIp: net.ip };
    this.where = net.namespace;
  }

  protected launch(args: string[]): [string, string[]] {
    return [this.ip, ['netns', 'exec', this.net.namespace, this.binary, ...args]];
  }

  override toString(): string {
    return `${this.ref.name} (${this.net.namespace} ${this.ref.direct}, client ${this.ports.client}, pid ${this.process?.pid ?? '-'}, ${this.status})`;
  }
}
