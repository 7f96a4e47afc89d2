import type { ConnectionOptions } from 'node:tls';
import { Cluster as IORedisCluster, type ClusterOptions } from 'ioredis';
import { ClusterUsageError, EnvironmentError } from './errors.ts';
import { PlaneCluster, RemotePlane, splitAddress, type Address, type Auth } from './remote-plane.ts';
import { parseClusterNodes, type ClusterNodesLine } from './topology.ts';
import type { Cluster, FailoverMode, Link, NodeRef, ToxicSpec } from './types.ts';
import { waitUntil } from './wait.ts';

// ---- seeds ---------------------------------------------------------------------------------

export interface ParsedSeeds {
  readonly seeds: Address[];
  /** rediss:// asks for TLS. */
  readonly tls: boolean;
  readonly username?: string;
  readonly password?: string;
}

const SEEDS_FORM = 'redis://host:port[,host:port...]';

/**
 * `redis://host:port[,host:port...]` (or `rediss://` for TLS; optional `user:password@` before the
 * first host; a port left out is 6379). Every error is one line naming the bad part.
 */
export function parseSeeds(spec: string, what = 'seeds'): ParsedSeeds {
  const bad = (why: string) => new ClusterUsageError(`${what}: ${why} in '${redact(spec)}' (expected ${SEEDS_FORM})`);
  const scheme = /^(rediss?):\/\//i.exec(spec);
  if (!scheme) throw bad(`missing redis:// or rediss:// scheme`);
  const tls = scheme[1].toLowerCase() === 'rediss';
  // Each entry may repeat the scheme (redis://a:1,redis://b:2); it must be the same one.
  let rest = spec.slice(scheme[0].length).replace(/,\s*(rediss?):\/\//gi, (_, again: string) => {
    if (again.toLowerCase() !== scheme[1].toLowerCase()) throw bad(`mixed ${scheme[1]}:// and ${again}:// seeds`);
    return ',';
  });
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = rest.slice(0, at);
    if (userinfo.includes(',')) throw bad(`credentials may only precede the first host`);
    rest = rest.slice(at + 1);
    const colon = userinfo.indexOf(':');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw bad(`undecodable credentials`);
      }
    };
    username = decode(colon >= 0 ? userinfo.slice(0, colon) : userinfo) || undefined;
    password = colon >= 0 ? decode(userinfo.slice(colon + 1)) : undefined;
  }
  const path = /[/?#].*$/.exec(rest);
  if (path) {
    // Redis Cluster has only database 0; anything else in the URL would be silently ignored.
    if (!/^\/0?$/.test(path[0])) throw bad(`unsupported '${path[0]}' (Redis Cluster has only database 0; no options)`);
    rest = rest.slice(0, path.index);
  }
  const seeds = rest.split(',').map((entry) => parseHostPort(entry.trim(), bad));
  return { seeds, tls, username, password };
}

/** A seed list fit for messages and reports: credentials replaced by ***. */
export function redact(spec: string): string {
  return spec.replace(/^(\s*rediss?:\/\/)[^,]*@/i, '$1***@');
}

function parseHostPort(entry: string, bad: (why: string) => Error): Address {
  if (entry === '') throw bad('empty seed');
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_.-]+))(?::([^:]*))?$/.exec(entry);
  if (!match) throw bad(`bad host '${entry}'`);
  const host = match[1] ?? match[2];
  const portText = match[3];
  if (portText === undefined) return { host, port: 6379 };
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65_535)
    throw bad(`bad port '${portText}' of '${entry}' (an integer in 1-65535)`);
  return { host, port };
}

// ---- namespace -----------------------------------------------------------------------------

/**
 * The key prefix of one run. Outside any `{hash tag}` on purpose: a key's slot is decided by its own
 * tag, so the prefix neither moves keys between slots nor piles them into one. Restricted to
 * characters that are not glob-special, so the prefix is its own SCAN MATCH pattern.
 */
export function namespacePrefix(runId: string): string {
  if (typeof runId !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(runId)) {
    throw new ClusterUsageError(`namespace: runId must be 1-64 of [A-Za-z0-9_.-], got ${JSON.stringify(runId)}`);
  }
  return `chaoslua:${runId}:`;
}

// ---- options -------------------------------------------------------------------------------

export interface ExternalClusterConstraints {
  /** `redis://host:port[,host:port...]`; `rediss://` for TLS. */
  seeds: string;
  password?: string;
  username?: string;
  /** TLS for every connection; `true` = Node's defaults. Implied by `rediss://`. */
  tls?: boolean | ConnectionOptions;
  /** Allow failover and SCRIPT FLUSH (the CLI's --allow-destructive). Default false. */
  allowDestructive?: boolean;
  /** Announced "host:port" -> address to dial, for clusters behind NAT or proxies. Default none. */
  natMap?: Record<string, Address>;
  /** How long connect() and heal() wait for the cluster to be ready. Default 30 s. */
  readyTimeoutMs?: number;
}

export interface ExternalClusterOptions {
  readonly seeds: Address[];
  readonly seedSpec: string;
  readonly auth: Auth;
  readonly allowDestructive: boolean;
  readonly natMap: Record<string, Address>;
  readonly readyTimeoutMs: number;
}

const KNOWN = ['seeds', 'password', 'username', 'tls', 'allowDestructive', 'natMap', 'readyTimeoutMs'];

export function externalClusterOptions(c: ExternalClusterConstraints): ExternalClusterOptions {
  const bad = (why: string) => new ClusterUsageError(`ExternalCluster.connect: ${why}`);
  if (typeof c !== 'object' || c === null) throw bad('options must be an object with at least seeds');
  for (const key of Object.keys(c)) if (!KNOWN.includes(key)) throw bad(`unknown option '${key}'`);
  if (typeof c.seeds !== 'string') throw bad(`seeds must be a string like ${SEEDS_FORM}`);
  const parsed = parseSeeds(c.seeds);
  for (const key of ['password', 'username'] as const) {
    if (c[key] !== undefined && typeof c[key] !== 'string') throw bad(`${key} must be a string`);
    if (c[key] !== undefined && parsed[key] !== undefined && c[key] !== parsed[key])
      throw bad(`${key} given both in seeds and as an option, and they differ`);
  }
  if (c.tls !== undefined && typeof c.tls !== 'boolean' && (typeof c.tls !== 'object' || c.tls === null))
    throw bad('tls must be a boolean or tls.ConnectionOptions');
  if (c.tls === false && parsed.tls) throw bad('tls: false contradicts the rediss:// seeds');
  if (c.allowDestructive !== undefined && typeof c.allowDestructive !== 'boolean')
    throw bad('allowDestructive must be a boolean');
  const natMap = c.natMap ?? {};
  if (typeof natMap !== 'object' || natMap === null)
    throw bad('natMap must be an object of "host:port" -> { host, port }');
  for (const [from, to] of Object.entries(natMap)) {
    if (typeof to?.host !== 'string' || !Number.isInteger(to.port))
      throw bad(`natMap['${from}'] must be { host: string, port: integer }`);
  }
  const readyTimeoutMs = c.readyTimeoutMs ?? 30_000;
  if (!Number.isInteger(readyTimeoutMs) || readyTimeoutMs < 100 || readyTimeoutMs > 600_000)
    throw bad(`readyTimeoutMs must be an integer in [100, 600000], got ${String(c.readyTimeoutMs)}`);
  const tls = c.tls === true || (c.tls === undefined && parsed.tls) ? {} : c.tls || undefined;
  return {
    seeds: parsed.seeds,
    seedSpec: c.seeds,
    auth: { username: c.username ?? parsed.username, password: c.password ?? parsed.password, tls },
    allowDestructive: c.allowDestructive ?? false,
    natMap,
    readyTimeoutMs,
  };
}

// ---- the backend ---------------------------------------------------------------------------

const UNUSABLE = ['fail', 'noaddr', 'handshake'];

/**
 * An existing Redis Cluster given by seed addresses. Non-destructive by default: every fault is
 * refused unless `allowDestructive`, and even then only what plain redis commands can do
 * (failover, SCRIPT FLUSH) is possible. The harness's keys live under `namespace(runId)` and are
 * removed by `dispose()`.
 */
export class ExternalCluster extends PlaneCluster implements Cluster {
  readonly kind = 'external' as const;
  private readonly namespaces = new Set<string>();
  private readonly claimed = new Set<string>();
  private disposed = false;

  private constructor(
    readonly options: ExternalClusterOptions,
    readonly nodes: readonly NodeRef[],
    protected readonly plane: RemotePlane,
  ) {
    super();
  }

  get destructive(): boolean {
    return this.options.allowDestructive;
  }

  static async connect(constraints: ExternalClusterConstraints): Promise<ExternalCluster> {
    const options = externalClusterOptions(constraints);
    let nodes: NodeRef[] = [];
    const plane = new RemotePlane(() => nodes, options.auth);
    try {
      nodes = await discover(options, plane);
      const cluster = new ExternalCluster(options, nodes, plane);
      await cluster.waitReady().catch((e: Error) => {
        throw new EnvironmentError(`external cluster ${redact(options.seedSpec)} is not ready: ${e.message}`);
      });
      return cluster;
    } catch (error) {
      plane.close();
      throw error;
    }
  }

  /** Register (and return) the key prefix of one run; dispose() deletes every key under it. */
  /** Delete every key matching this SCAN MATCH pattern at dispose (keys whose run id sits inside a hash tag). */
  claimKeys(pattern: string): void {
    this.claimed.add(pattern);
  }

  namespace(runId: string): string {
    const prefix = namespacePrefix(runId);
    this.namespaces.add(prefix);
    return prefix;
  }

  seeds(): Address[] {
    return this.options.seeds.map((s) => ({ ...s }));
  }

  natMap(): Record<string, Address> {
    return { ...this.options.natMap };
  }

  connect(options: ClusterOptions = {}): IORedisCluster {
    const { username, password, tls } = this.options.auth;
    return new IORedisCluster(this.seeds(), {
      natMap: this.natMap(),
      ...options,
      redisOptions: { username, password, tls, ...options.redisOptions },
    });
  }

  async failover(replica: number, mode: FailoverMode): Promise<void> {
    this.allow('failover');
    await this.plane.failover(replica, mode, this.options.readyTimeoutMs);
  }

  async scriptFlush(): Promise<void> {
    this.allow('scriptFlush');
    await this.plane.scriptFlush();
  }

  async freeze(): Promise<void> {
    this.impossible('freeze');
  }

  async thaw(): Promise<void> {
    this.impossible('thaw');
  }

  async kill(): Promise<void> {
    this.impossible('kill');
  }

  async restart(): Promise<void> {
    this.impossible('restart');
  }

  async toxic(_node: number, _link: Link, _spec: ToxicSpec): Promise<void> {
    this.impossible('toxic');
  }

  async setProxyEnabled(_node: number, _link: Link, _enabled: boolean): Promise<void> {
    this.impossible('setProxyEnabled');
  }

  /** Nothing to undo (no fault here has state); heal means: wait until the cluster is ready again. */
  async heal(): Promise<void> {
    try {
      await this.waitReady();
    } catch (error) {
      throw new Error(
        `heal failed: ${(error as Error).message}; topology: ${await this.topology().catch(() => 'unknown')}`,
      );
    }
  }

  waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    return waitUntil('cluster ready', () => this.plane.readyProblem({}), timeoutMs);
  }

  /** Delete every key under the run's namespaces (SCAN per master), then close. Throws, after
   *  closing, if some keys could not be deleted: leftovers on someone's cluster must not be silent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const failures: string[] = [];
    try {
      for (const pattern of [...[...this.namespaces].map((prefix) => `${prefix}*`), ...this.claimed]) {
        for (const error of await this.plane.deleteMatching(pattern)) failures.push(error);
      }
    } catch (error) {
      failures.push((error as Error).message);
    } finally {
      this.plane.close();
    }
    if (failures.length > 0) {
      throw new Error(
        `dispose: keys under ${[...this.namespaces, ...this.claimed].join(', ')} may remain: ${failures.slice(0, 3).join('; ')}`,
      );
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  override toString(): string {
    const masters = this.nodes.length;
    return `external cluster ${redact(this.options.seedSpec)} (${masters} nodes${this.destructive ? ', destructive allowed' : ''})`;
  }

  private allow(op: string): void {
    if (!this.options.allowDestructive)
      throw new ClusterUsageError(`${op} refused on an external cluster: pass --allow-destructive`);
  }

  private impossible(op: string): never {
    this.allow(op);
    throw new ClusterUsageError(
      `${op} is not possible on an external cluster: it needs process or network access to the nodes, which chaoslua has only for --cluster local or compose`,
    );
  }
}

/** The nodes, from the first seed that answers CLUSTER NODES: masters by lowest slot, then replicas
 *  in their masters' order, so indices read like a local cluster's (n0-n2 masters, n3-n5 replicas). */
async function discover(options: ExternalClusterOptions, plane: RemotePlane): Promise<NodeRef[]> {
  const problems: string[] = [];
  for (const seed of options.seeds) {
    let lines: ClusterNodesLine[];
    try {
      lines = parseClusterNodes(String(await plane.callAt(seed, 'CLUSTER', 'NODES')));
    } catch (error) {
      problems.push(`${seed.host}:${seed.port}: ${(error as Error).message}`);
      continue;
    }
    const usable = lines.filter((l) => !l.flags.some((f) => UNUSABLE.includes(f)) && !l.address.startsWith(':'));
    const masters = usable
      .filter((l) => l.flags.includes('master'))
      .sort((a, b) => (a.slots[0]?.[0] ?? 1e9) - (b.slots[0]?.[0] ?? 1e9));
    const rank = new Map(masters.map((m, i) => [m.id, i]));
    const replicas = usable
      .filter((l) => !l.flags.includes('master'))
      .sort(
        (a, b) => (rank.get(a.masterId) ?? 1e9) - (rank.get(b.masterId) ?? 1e9) || a.address.localeCompare(b.address),
      );
    return [...masters, ...replicas].map((line, index) => {
      const mapped = options.natMap[line.address];
      const dial = mapped ? `${mapped.host}:${mapped.port}` : line.address;
      splitAddress(dial); // fail here, not on first use, on an address we cannot dial
      return { index, name: `n${index}`, announced: line.address, client: dial, direct: dial };
    });
  }
  throw new EnvironmentError(
    `external cluster ${redact(options.seedSpec)}: no seed answered CLUSTER NODES (${problems.join('; ')})`,
  );
}
