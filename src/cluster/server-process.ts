import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clockLibrary, ClockLibraryError } from '../clock/library.ts';
import { ClockPage } from '../clock/page.ts';
import { EnvironmentError } from './errors.ts';
import type { LocalClusterOptions } from './options.ts';
import { noPersistenceArgs, removeSnapshot } from './persistence.ts';
import type { ReapedDir } from './reaper.ts';
import type { NodeRef } from './types.ts';

/** A redis-server log line's prefix (pid:role date time level): nothing a node's name does not say. */
export const REDIS_LOG_PREFIX = /^\d+:\w \d+ \w+ \d+ [\d:.]+ [#*.-] /;

export type NodeStatus = 'running' | 'frozen' | 'killed';

/** Where a node's server listens and what it tells its peers, the only settings the backends differ on. */
export interface ServerAddress {
  readonly port: number;
  readonly bind: string;
  readonly busPort: number;
  readonly announceIp: string;
  /** Announced ports when peers reach the node through proxies (local backend); absent: its own ports. */
  readonly announcePort?: number;
  readonly announceBusPort?: number;
}

/**
 * One redis-server child in cluster mode, restartable with the same identity: the lifecycle both
 * process backends share (local: loopback ports behind proxies; netns: one network namespace per
 * node). A subclass says where the server listens (`address`) and how it is launched (`launch`).
 */
export abstract class ServerProcess {
  status: NodeStatus = 'killed';
  process?: ChildProcess;
  private exited?: Promise<void>;
  /** The node's wall clock, which the clock faults move (absent where the preload cannot be built). */
  readonly clock?: ClockPage;
  private readonly preload?: string;

  protected constructor(
    readonly index: number,
    readonly ref: NodeRef,
    protected readonly dir: ReapedDir,
    private readonly options: LocalClusterOptions,
  ) {
    try {
      this.preload = clockLibrary();
      this.clock = ClockPage.create(path.join(dir.dir, `${ref.name}.clock`));
    } catch (error) {
      // Without a C compiler the cluster runs with true clocks; a clock fault then says why it cannot.
      if (!(error instanceof ClockLibraryError)) throw error;
    }
  }

  protected abstract readonly address: ServerAddress;
  /** The command and arguments that run `binary args` where this node lives. */
  protected abstract launch(args: string[]): [command: string, args: string[]];
  /** Where the node is, for error messages. */
  protected abstract readonly where: string;

  get logFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.log`);
  }

  /** Where a replica's full sync could leave a snapshot; removed before every start (./persistence.ts). */
  get snapshotFile(): string {
    return path.join(this.dir.dir, `${this.ref.name}.rdb`);
  }

  /** The server's process id (setpriv and `ip netns exec` exec it, so the child's pid is the server's). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** The server's arguments; a Sentinel (./sentinel-nodes.ts) has its own. */
  protected args(): string[] {
    const o = this.options;
    const a = this.address;
    const args = [
      '--port',
      String(a.port),
      '--bind',
      a.bind,
      '--protected-mode',
      'no',
      '--daemonize',
      'no',
      '--dir',
      this.dir.dir,
      '--logfile',
      this.logFile,
      // Persistence off: a restarted node comes back empty, exactly the hazard the kill fault exercises.
      ...noPersistenceArgs(this.snapshotFile),
      ...(this.clustered ? this.clusterArgs() : []),
      ...this.roleArgs(),
      // Full syncs start at once instead of waiting 5 s for more replicas to batch with.
      '--repl-diskless-sync',
      'yes',
      '--repl-diskless-sync-delay',
      '0',
    ];
    if (o.maxmemory) args.push('--maxmemory', o.maxmemory);
    if (o.maxmemoryPolicy) args.push('--maxmemory-policy', o.maxmemoryPolicy);
    if (o.luaTimeLimitMs !== undefined) args.push('--lua-time-limit', String(o.luaTimeLimitMs));
    return args;
  }

  /** In cluster mode (both cluster backends); a standalone master (./masters.ts) says false. */
  protected readonly clustered: boolean = true;

  /** What a standalone node is told of its role each time it starts (a replica under Sentinel: whom it replicates). */
  protected roleArgs(): string[] {
    return [];
  }

  private clusterArgs(): string[] {
    const a = this.address;
    return [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      path.join(this.dir.dir, `nodes-${this.index}.conf`),
      '--cluster-node-timeout',
      String(this.options.nodeTimeoutMs),
      // Left out at its default (port + 10000): Redis 6.2 has no cluster-port and refuses the setting.
      ...(a.busPort === a.port + 10_000 ? [] : ['--cluster-port', String(a.busPort)]),
      '--cluster-announce-ip',
      a.announceIp,
      ...(a.announcePort === undefined ? [] : ['--cluster-announce-port', String(a.announcePort)]),
      ...(a.announceBusPort === undefined ? [] : ['--cluster-announce-bus-port', String(a.announceBusPort)]),
      // Shards that are up keep serving while another is down: faults stay local to one shard.
      '--cluster-require-full-coverage',
      'no',
      // A replica may always take over, however long its master was frozen.
      '--cluster-replica-validity-factor',
      '0',
    ];
  }

  /** Spawn the process; returns once it is spawned (readiness is the caller's to wait for). */
  start(): void {
    removeSnapshot(this.snapshotFile);
    const [command, args] = this.launch(this.args());
    // Through env(1), which execs: the server keeps the child's pid (the reaper's and freeze's handle).
    const [program, argv] =
      this.clock && this.preload
        ? ['env', [`LD_PRELOAD=${this.preload}`, `CHAOSLUA_CLOCK_FILE=${this.clock.file}`, command, ...args]]
        : [command, args];
    const child = this.dir.spawn(program, argv);
    this.process = child;
    this.status = 'running';
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (this.process === child) this.status = 'killed';
    });
  }

  /** Why the process is not running, from its log, for error messages. */
  failureReason(): string {
    try {
      const lines = fs.readFileSync(this.logFile, 'utf8').trim().split('\n');
      const fatal = lines.filter((l) => /#|error|fatal|can't|could not/i.test(l)).pop() ?? lines.pop() ?? '';
      return fatal.replace(REDIS_LOG_PREFIX, '').trim();
    } catch {
      return 'no log written';
    }
  }

  assertAlive(): void {
    if (this.status === 'killed')
      throw new EnvironmentError(`redis-server ${this.ref.name} (${this.where}) exited: ${this.failureReason()}`);
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
}
