import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LocalClusterOptions } from './options.ts';
import type { ReapedDir } from './reaper.ts';
import { ServerProcess, type ServerAddress } from './server-process.ts';
import { StandaloneNode, type StandalonePorts } from './standalone.ts';

/** The name the Sentinels monitor the primary by: what a client gives ioredis as `name`. */
export const SENTINEL_MASTER_NAME = 'chaoslua';

/** The ports of one data node: the server's own, its internal proxy (announced), its client proxy, the RESP point in front of that. */
export interface DataNodePorts extends StandalonePorts {
  /** Internal proxy -> direct; announced (replica-announce-port), so replication and the Sentinels' links cross it. */
  readonly internal: number;
}

/**
 * One standalone redis-server of a Sentinel deployment: the primary or a replica. It announces its
 * internal proxy, so the Sentinels (which learn replicas from the primary's INFO) and the replicas
 * reach it through Toxiproxy: a toxic or a disabled proxy there cuts it off from both while its
 * clients still reach it, which is how a Sentinel failover leaves an old primary taking writes.
 */
export class SentinelDataNode extends StandaloneNode<DataNodePorts> {
  /** Whom it replicates at its next start ("host:port", announced), or undefined to start as a primary. */
  replicaOf: string | undefined;

  constructor(index: number, ports: DataNodePorts, binary: string, dir: ReapedDir, options: LocalClusterOptions) {
    super(index, ports, `127.0.0.1:${ports.internal}`, binary, dir, options);
  }

  /** Sentinel rewrites a real node's config after a failover; these nodes have none, so each start is told its role. */
  protected override roleArgs(): string[] {
    const args = ['--replica-announce-ip', '127.0.0.1', '--replica-announce-port', String(this.ports.internal)];
    if (this.replicaOf) {
      const [host, port] = this.replicaOf.split(':');
      args.push('--replicaof', host, port);
    }
    return args;
  }
}

/** What a Sentinel is told to watch, and how quickly it acts. */
export interface SentinelWatch {
  /** The primary's announced address ("host:port"). */
  readonly primary: string;
  readonly replicas: readonly string[];
  /** down-after-milliseconds: the node timeout, as the cluster's cluster-node-timeout. */
  readonly downAfterMs: number;
  readonly failoverTimeoutMs: number;
  /** Every Sentinel's port and id, this one's included: each is told of the others up front. */
  readonly peers: readonly { readonly port: number; readonly id: string }[];
}

/** A Sentinel's run id: 40 hex digits, chosen here so each can be told of the others before any starts. */
export const sentinelId = (): string => randomBytes(20).toString('hex');

/**
 * One Sentinel: the same server binary in Sentinel mode (`--sentinel`), under the clock preload like
 * every server the harness starts, with a config file of its own (Sentinel rewrites it). It is told of
 * its peers and the replicas (known-sentinel, known-replica), so it agrees with them at once instead
 * of after rounds of hello messages. Never a fault's target: it is not one of the cluster's nodes.
 */
export class SentinelProcess extends ServerProcess {
  protected readonly address: ServerAddress;
  protected readonly where: string;
  protected override readonly clustered = false;
  private readonly configFile: string;

  constructor(
    index: number,
    readonly port: number,
    private readonly binary: string,
    dir: ReapedDir,
    options: LocalClusterOptions,
    watch: SentinelWatch,
  ) {
    const at = `127.0.0.1:${port}`;
    super(index, { index, name: `s${index}`, announced: at, client: at, direct: at }, dir, options);
    this.address = { port, bind: '127.0.0.1', busPort: port + 10_000, announceIp: '127.0.0.1' };
    this.where = `sentinel port ${port}`;
    this.configFile = path.join(dir.dir, `sentinel-${index}.conf`);
    const [host, primaryPort] = watch.primary.split(':');
    const name = SENTINEL_MASTER_NAME;
    const lines = [
      `sentinel myid ${watch.peers[index].id}`,
      `sentinel monitor ${name} ${host} ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${name} ${watch.downAfterMs}`,
      `sentinel failover-timeout ${name} ${watch.failoverTimeoutMs}`,
      `sentinel parallel-syncs ${name} ${Math.max(1, watch.replicas.length)}`,
      ...watch.replicas.map((r) => `sentinel known-replica ${name} ${r.replace(':', ' ')}`),
      ...watch.peers
        .filter((_, i) => i !== index)
        .map((p) => `sentinel known-sentinel ${name} 127.0.0.1 ${p.port} ${p.id}`),
    ];
    fs.writeFileSync(this.configFile, `${lines.join('\n')}\n`);
  }

  /** Sentinel mode takes the config file first; no persistence, cluster or replication settings apply. */
  protected override args(): string[] {
    return [
      this.configFile,
      '--sentinel',
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--protected-mode',
      'no',
      '--daemonize',
      'no',
      '--dir',
      this.dir.dir,
      '--logfile',
      this.logFile,
    ];
  }

  protected launch(args: string[]): [string, string[]] {
    return [this.binary, args];
  }
}
