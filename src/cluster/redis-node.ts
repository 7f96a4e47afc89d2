import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from './errors.ts';
import { noPersistenceArgs, removeSnapshot } from './persistence.ts';
import type { LocalClusterOptions } from './options.ts';
import type { ReapedDir } from './reaper.ts';
import type { NodeRef } from './types.ts';

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

export type NodeStatus = 'running' | 'frozen' | 'killed';

/** One redis-server child process in cluster mode, restartable with the same identity. */
export class RedisNode {
  status: NodeStatus = 'killed';
  process?: ChildProcess;
  private exited?: Promise<void>;
  readonly ref: NodeRef;

  constructor(
    readonly index: number,
    readonly ports: NodePorts,
    private readonly binary: string,
    private readonly dir: ReapedDir,
    private readonly options: LocalClusterOptions,
  ) {
    this.ref = {
      index,
      name: `n${index}`,
      announced: `127.0.0.1:${ports.internal}`,
      client: `127.0.0.1:${ports.point}`,
      direct: `127.0.0.1:${ports.direct}`,
    };
  }

  get logFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.log`);
  }

  /** Where a replica's full sync could leave a snapshot; removed before every start (./persistence.ts). */
  get snapshotFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.rdb`);
  }

  private args(): string[] {
    const o = this.options;
    const args = [
      '--port', String(this.ports.direct),
      '--bind', '127.0.0.1',
      '--protected-mode', 'no',
      '--daemonize', 'no',
      '--dir', this.dir.dir,
      '--logfile', this.logFile,
      // Persistence off: a restarted node comes back empty, exactly the hazard the kill fault exercises.
      ...noPersistenceArgs(this.snapshotFile),
      '--cluster-enabled', 'yes',
      '--cluster-config-file', path.join(this.dir.dir, `nodes-${this.index}.conf`),
      '--cluster-node-timeout', String(o.nodeTimeoutMs),
      '--cluster-port', String(this.ports.bus),
      '--cluster-announce-ip', '127.0.0.1',
      '--cluster-announce-port', String(this.ports.internal),
      '--cluster-announce-bus-port', String(this.ports.internalBus),
      // Shards that are up keep serving while another is down: faults stay local to one shard.
      '--cluster-require-full-coverage', 'no',
      // A replica may always take over, however long its master was frozen.
      '--cluster-replica-validity-factor', '0',
      // Full syncs start at once instead of waiting 5 s for more replicas to batch with.
      '--repl-diskless-sync', 'yes',
      '--repl-diskless-sync-delay', '0',
    ];
    if (o.maxmemory) args.push('--maxmemory', o.maxmemory);
    if (o.maxmemoryPolicy) args.push('--maxmemory-policy', o.maxmemoryPolicy);
    if (o.luaTimeLimitMs !== undefined) args.push('--lua-time-limit', String(o.luaTimeLimitMs));
    return args;
  }

  /** Spawn the process; resolves once it is spawned (readiness is the caller's to wait for). */
  start(): void {
    removeSnapshot(this.snapshotFile);
    const child = this.dir.spawn(this.binary, this.args());
    this.process = child;
    this.status = 'running';
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (this.process === child) this.status = 'killed';
    });
  }

  /** Why the process is not running, from its log, for error messages. */
  /** The server's process id (setpriv execs it, so the child's pid is the server's). */
  get pid(): number | undefined {
    return this.process?.pid;
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
    if (this.status === 'killed') {
      throw new EnvironmentError(`redis-server ${this.ref.name} (port ${this.ports.direct}) exited: ${this.failureReason()}`);
    }
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
    return `${this.ref.name} (redis ${this.ports.direct}, announced ${this.ports.internal}, client ${this.ports.client}, pid ${this.process?.pid ?? '-'}, ${this.status})`;
  }
}
