import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../errors.ts';
import { noPersistenceArgs, removeSnapshot } from '../persistence.ts';
import type { LocalClusterOptions } from '../options.ts';
import type { ReapedDir } from '../reaper.ts';
import type { NodeStatus } from '../redis-node.ts';
import type { NodeRef } from '../types.ts';
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
export class NetnsNode {
  status: NodeStatus = 'killed';
  process?: ChildProcess;
  private exited?: Promise<void>;
  readonly ref: NodeRef;

  constructor(
    readonly index: number,
    readonly net: NodeNet,
    readonly ports: FrontPorts,
    private readonly ip: string,
    private readonly binary: string,
    private readonly dir: ReapedDir,
    private readonly options: LocalClusterOptions,
  ) {
    this.ref = {
      index,
      name: `n${index}`,
      announced: `${net.ip}:${REDIS_PORT}`,
      client: `127.0.0.1:${ports.point}`,
      direct: `${net.ip}:${REDIS_PORT}`,
    };
  }

  get logFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.log`);
  }

  /** Where a replica's full sync could leave a snapshot; removed before every start (../persistence.ts). */
  get snapshotFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.rdb`);
  }

  private args(): string[] {
    const o = this.options;
    const args = [
      '--port', String(REDIS_PORT),
      '--bind', this.net.ip,
      '--protected-mode', 'no',
      '--daemonize', 'no',
      '--dir', this.dir.dir,
      '--logfile', this.logFile,
      ...noPersistenceArgs(this.snapshotFile),
      '--cluster-enabled', 'yes',
      '--cluster-config-file', path.join(this.dir.dir, `nodes-${this.index}.conf`),
      '--cluster-node-timeout', String(o.nodeTimeoutMs),
      '--cluster-port', String(BUS_PORT),
      '--cluster-announce-ip', this.net.ip,
      '--cluster-require-full-coverage', 'no',
      '--cluster-replica-validity-factor', '0',
      '--repl-diskless-sync', 'yes',
      '--repl-diskless-sync-delay', '0',
    ];
    if (o.maxmemory) args.push('--maxmemory', o.maxmemory);
    if (o.maxmemoryPolicy) args.push('--maxmemory-policy', o.maxmemoryPolicy);
    if (o.luaTimeLimitMs !== undefined) args.push('--lua-time-limit', String(o.luaTimeLimitMs));
    return args;
  }

  start(): void {
    removeSnapshot(this.snapshotFile);
    const child = this.dir.spawn(this.ip, ['netns', 'exec', this.net.namespace, this.binary, ...this.args()]);
    this.process = child;
    this.status = 'running';
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (this.process === child) this.status = 'killed';
    });
  }

  failureReason(): string {
    try {
      const lines = fs.readFileSync(this.logFile, 'utf8').trim().split('\n');
      const fatal = lines.filter((l) => /#|error|fatal|can't|could not/i.test(l)).pop() ?? lines.pop() ?? '';
      return fatal.replace(/^\d+:\w \d+ \w+ \d+ [\d:.]+ [#*.-] /, '').trim();
    } catch {
      return 'no log written';
    }
  }

  assertAlive(): void {
    if (this.status === 'killed') throw new EnvironmentError(`redis-server ${this.ref.name} (${this.net.namespace}) exited: ${this.failureReason()}`);
  }

  signal(signal: NodeJS.Signals): void {
    if (this.process?.pid === undefined) return;
    try {
      process.kill(this.process.pid, signal);
    } catch {
      /* already gone */
    }
  }

  async kill(): Promise<void> {
    if (this.status === 'killed') return;
    this.signal('SIGKILL');
    await this.exited;
    this.status = 'killed';
  }

  toString(): string {
    return `${this.ref.name} (${this.net.namespace} ${this.ref.direct}, client ${this.ports.client}, pid ${this.process?.pid ?? '-'}, ${this.status})`;
  }
}
