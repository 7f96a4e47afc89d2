import type { LocalClusterOptions } from './options.ts';
import type { ReapedDir } from './reaper.ts';
import { ServerProcess, type ServerAddress } from './server-process.ts';

/** The six ports of one node: the server's own two, the three proxies in front of them, and the RESP point in front of the client proxy. */
export interface NodePorts {
  /** redis-server's client port (control plane dials it directly). */
  readonly direct: number;
  /** redis-server's cluster bus port. */
  readonly bus: number;
  /** Internal proxy -> direct; announced as cluster-announce-port, so replication and redirections cross it. */
  readonly internal: number;
  /** Internal proxy -> bus; announced as cluster-announce-bus-port, so gossip crosses it. */
  readonly internalBus: number;
  /** Client proxy -> direct (Toxiproxy: byte-level faults). */
  readonly client: number;
  /** RESP point -> client proxy (command-aware faults); what harness clients dial (through natMap). */
  readonly point: number;
}

/** One redis-server child on loopback, announcing its internal proxies so that replication and gossip cross Toxiproxy. */
export class RedisNode extends ServerProcess {
  protected readonly address: ServerAddress;
  protected readonly where: string;

  constructor(
    index: number,
    readonly ports: NodePorts,
    private readonly binary: string,
    dir: ReapedDir,
    options: LocalClusterOptions,
  ) {
    super(
      index,
      {
        index,
        name: `n${index}`,
        announced: `127.0.0.1:${ports.internal}`,
        client: `127.0.0.1:${ports.point}`,
        direct: `127.0.0.1:${ports.direct}`,
      },
      dir,
      options,
    );
    this.address = {
      port: ports.direct,
      bind: '127.0.0.1',
      busPort: ports.bus,
      announceIp: '127.0.0.1',
      announcePort: ports.internal,
      announceBusPort: ports.internalBus,
    };
    this.where = `port ${ports.direct}`;
  }

  protected launch(args: string[]): [string, string[]] {
    return [this.binary, args];
  }

  override toString(): string {
    return `${this.ref.name} (redis ${this.ports.direct}, announced ${this.ports.internal}, client ${this.ports.client}, pid ${this.process?.pid ?? '-'}, ${this.status})`;
  }
}
