import { NODE_TIMEOUT_MS } from '../plan/node-timeout.ts';
import fs from 'node:fs';
import path from 'node:path';
import { Cluster as IORedisCluster, type ClusterOptions } from 'ioredis';
import type { ContainerRuntimeClient, StartedDockerComposeEnvironment, StartedTestContainer } from 'testcontainers';
import { projectRoot } from './binaries.ts';
import { requireDocker } from './docker.ts';
import { ClusterUsageError, EnvironmentError } from './errors.ts';
import { healCluster } from './heal.ts';
import { PlaneCluster, RemotePlane, type Address } from './remote-plane.ts';
import { Toxiproxy } from './toxiproxy.ts';
import type { Cluster, FailoverMode, Link, NodeRef, ToxicSpec } from './types.ts';
import { waitUntil } from './wait.ts';

/** The shape of docker-compose.cluster.yml; the unit suite checks the file against it. */
export const COMPOSE_LAYOUT = {
  nodes: 6,
  masters: 3,
  replicasPerMaster: 1,
  toxiproxyService: 'toxiproxy',
  createService: 'cluster-create',
  redisService: (i: number) => `redis-${i}`,
  /** Inside the toxiproxy container: announced client port, announced bus port, client proxy. */
  internalPort: (i: number) => 7000 + i,
  busPort: (i: number) => 17000 + i,
  clientPort: (i: number) => 8000 + i,
  apiPort: 8474,
  redisPort: 6379,
  redisBusPort: 16379,
} as const;

export const DEFAULT_COMPOSE_FILE = path.join(projectRoot, 'docker-compose.cluster.yml');

export interface ComposeClusterConstraints {
  /** The compose file. Default: the project's docker-compose.cluster.yml. */
  composeFile?: string;
  /** Toxiproxy's -seed. Default 1. */
  seed?: number;
  /** cluster-node-timeout in ms. Default NODE_TIMEOUT_MS.default. */
  nodeTimeoutMs?: number;
  /** How long start() (images pulled, containers up, cluster formed) and heal() may take. Default 120 s. */
  readyTimeoutMs?: number;
}

export type ComposeClusterOptions = Required<ComposeClusterConstraints>;

export function composeClusterOptions(c: ComposeClusterConstraints = {}): ComposeClusterOptions {
  const bad = (why: string) => new ClusterUsageError(`ComposeCluster.start: ${why}`);
  for (const key of Object.keys(c))
    if (!['composeFile', 'seed', 'nodeTimeoutMs', 'readyTimeoutMs'].includes(key)) throw bad(`unknown option '${key}'`);
  const integer = (name: string, value: unknown, min: number, max: number) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw bad(`${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
    return value;
  };
  const composeFile = path.resolve(c.composeFile ?? DEFAULT_COMPOSE_FILE);
  if (!fs.existsSync(composeFile)) throw bad(`composeFile ${composeFile} does not exist`);
  return {
    composeFile,
    seed: integer('seed', c.seed ?? 1, 0, 2 ** 31 - 1),
    nodeTimeoutMs: integer(
      'nodeTimeoutMs',
      c.nodeTimeoutMs ?? NODE_TIMEOUT_MS.default,
      NODE_TIMEOUT_MS.min,
      NODE_TIMEOUT_MS.max,
    ),
    readyTimeoutMs: integer('readyTimeoutMs', c.readyTimeoutMs ?? 120_000, 1_000, 900_000),
  };
}

type DockerContainer = ReturnType<ContainerRuntimeClient['container']['getById']>;
type Status = 'running' | 'frozen' | 'killed';

/** Ports are published on 127.0.0.1 only (see the compose file), so the engine must be local. */
const HOST = '127.0.0.1';

interface ComposeNode {
  readonly index: number;
  readonly container: DockerContainer;
  /** The toxiproxy container's port for this node's client proxy, as mapped on the host. */
  readonly clientPort: number;
  readonly announced: string;
  /** Host port of the node's own 6379; Docker picks a new one on every start. */
  directPort: number;
  status: Status;
}

/**
 * The cluster of docker-compose.cluster.yml, through testcontainers: same interface as LocalCluster.
 * Node faults become container operations (freeze = pause, kill = SIGKILL, restart = start), network
 * faults go to the Toxiproxy API on its mapped port, everything else is redis commands.
 */
export class ComposeCluster extends PlaneCluster implements Cluster {
  readonly kind = 'compose' as const;
  readonly destructive = true;
  protected readonly plane: RemotePlane;
  private disposed = false;

  private constructor(
    readonly options: ComposeClusterOptions,
    private readonly environment: StartedDockerComposeEnvironment,
    private readonly toxiproxy: Toxiproxy,
    private readonly composeNodes: readonly ComposeNode[],
    readonly image: string,
  ) {
    super();
    this.plane = new RemotePlane(
      () => this.nodes,
      {},
      (i) => this.composeNodes[i]?.status === 'running',
    );
  }

  get nodes(): readonly NodeRef[] {
    return this.composeNodes.map((n) => ({
      index: n.index,
      name: `n${n.index}`,
      announced: n.announced,
      client: `${HOST}:${n.clientPort}`,
      direct: `${HOST}:${n.directPort}`,
    }));
  }

  /** Throws DockerUnavailableError (message: the skip line) when no Docker engine answers. */
  static async start(constraints: ComposeClusterConstraints = {}): Promise<ComposeCluster> {
    const options = composeClusterOptions(constraints);
    await requireDocker();
    const { DockerComposeEnvironment, Wait, getContainerRuntimeClient } = await import('testcontainers');
    const L = COMPOSE_LAYOUT;
    let started: StartedDockerComposeEnvironment;
    try {
      started = await new DockerComposeEnvironment(
        path.dirname(options.composeFile),
        path.basename(options.composeFile),
      )
        .withEnvironment({
          CHAOSLUA_SEED: String(options.seed),
          CHAOSLUA_NODE_TIMEOUT_MS: String(options.nodeTimeoutMs),
        })
        .withStartupTimeout(options.readyTimeoutMs)
        .withDefaultWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
        .withWaitStrategy(`${L.toxiproxyService}-1`, Wait.forHttp('/version', L.apiPort))
        // Listed only if still running when compose returns; its success shows in readiness below.
        .withWaitStrategy(`${L.createService}-1`, Wait.forOneShotStartup())
        .up();
    } catch (error) {
      throw new EnvironmentError(`compose cluster did not start: ${(error as Error).message.split('\n')[0]}`);
    }
    try {
      const runtime = await getContainerRuntimeClient();
      const toxi = started.getContainer(`${L.toxiproxyService}-1`);
      // Every node announces toxiproxy's address (the compose file resolves it the same way).
      const toxiIp = toxi.getIpAddress(toxi.getNetworkNames()[0]);
      const nodes = Array.from({ length: L.nodes }, (_, index): ComposeNode => {
        const container: StartedTestContainer = started.getContainer(`${L.redisService(index)}-1`);
        return {
          index,
          container: runtime.container.getById(container.getId()),
          clientPort: toxi.getMappedPort(L.clientPort(index)),
          announced: `${toxiIp}:${L.internalPort(index)}`,
          directPort: container.getMappedPort(L.redisPort),
          status: 'running',
        };
      });
      const toxiproxy = Toxiproxy.attach(toxi.getMappedPort(L.apiPort));
      // The image as the engine ran it (the compose file's setting, resolved), for the certificate.
      const image = (await nodes[0].container.inspect()).Config.Image;
      const cluster = new ComposeCluster(options, started, toxiproxy, nodes, image);
      await cluster.waitReady().catch((e: Error) => {
        throw new Error(`${e.message} (the ${L.createService} service's log says whether the cluster was formed)`);
      });
      return cluster;
    } catch (error) {
      await started.down({ timeout: 0, removeVolumes: true }).catch(() => undefined);
      throw new EnvironmentError(`compose cluster not ready: ${(error as Error).message}`);
    }
  }

  /** Ready: what LocalCluster means by it, plus every client proxy answering from the host. */
  async waitReady(timeoutMs = this.options.readyTimeoutMs): Promise<void> {
    const { nodes, replicasPerMaster } = COMPOSE_LAYOUT;
    await waitUntil(
      'cluster ready',
      async () => {
        const problem = await this.plane.readyProblem({ nodes, replicasPerMaster });
        if (problem !== true) return problem;
        for (const n of this.composeNodes) {
          const pong = await this.plane
            .callAt({ host: HOST, port: n.clientPort }, 'PING')
            .catch((e: Error) => e.message);
          if (pong !== 'PONG') return `client proxy of n${n.index} not answering: ${String(pong)}`;
        }
        return true;
      },
      timeoutMs,
      100,
    );
  }

  seeds(): Address[] {
    return this.composeNodes.map((n) => ({ host: HOST, port: n.clientPort }));
  }

  natMap(): Record<string, Address> {
    return Object.fromEntries(this.composeNodes.map((n) => [n.announced, { host: HOST, port: n.clientPort }]));
  }

  connect(options: ClusterOptions = {}): IORedisCluster {
    return new IORedisCluster(this.seeds(), {
      natMap: this.natMap(),
      ...options,
      redisOptions: { ...options.redisOptions },
    });
  }

  failover(replica: number, mode: FailoverMode): Promise<void> {
    return this.plane.failover(replica, mode, Math.max(10_000, this.options.nodeTimeoutMs * 10));
  }

  scriptFlush(): Promise<void> {
    return this.plane.scriptFlush();
  }

  /** `docker pause`: the cgroup freezer stops every process of the container, like SIGSTOP. */
  async freeze(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'running') throw new ClusterUsageError(`freeze: n${node} is ${n.status}`);
    await n.container.pause();
    n.status = 'frozen';
    this.plane.drop({ host: HOST, port: n.directPort });
  }

  async thaw(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'frozen') return;
    await n.container.unpause();
    n.status = 'running';
  }

  /** SIGKILL to the container's main process (Docker refuses to kill a paused container: thaw first). */
  async kill(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status === 'killed') return;
    await this.thaw(node);
    await n.container.kill({ signal: 'SIGKILL' }).catch((e: Error) => {
      if (!/is not running/.test(e.message)) throw e;
    });
    await waitUntil(
      `n${node} container stopped`,
      async () => ((await n.container.inspect()).State.Running ? 'still running' : true),
      10_000,
      50,
    );
    n.status = 'killed';
    this.plane.drop({ host: HOST, port: n.directPort });
  }

  /** Start the same container again: same nodes.conf (identity), empty data (no persistence). */
  async restart(node: number): Promise<void> {
    const n = this.node(node);
    if (n.status !== 'killed') await this.kill(node);
    await n.container.start();
    const port = (await n.container.inspect()).NetworkSettings.Ports[`${COMPOSE_LAYOUT.redisPort}/tcp`]?.[0]?.HostPort;
    if (!port)
      throw new EnvironmentError(`restart: n${node}'s port ${COMPOSE_LAYOUT.redisPort} is not published after start`);
    n.directPort = Number(port);
    n.status = 'running';
    await waitUntil(
      `n${node} answering PING after restart`,
      async () => (await this.plane.call(node, 'PING')) === 'PONG' || 'no PONG',
      20_000,
      50,
    );
  }

  async toxic(node: number, link: Link, spec: ToxicSpec): Promise<void> {
    await this.toxiproxy.addToxic(`n${this.node(node).index}-${link}`, spec);
  }

  async setProxyEnabled(node: number, link: Link, enabled: boolean): Promise<void> {
    await this.toxiproxy.setEnabled(`n${this.node(node).index}-${link}`, enabled);
  }

  heal(): Promise<void> {
    return healCluster(this.toxiproxy, this.composeNodes, this);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.plane.close();
    await this.environment.down({ timeout: 0, removeVolumes: true });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  override toString(): string {
    return `compose cluster ${COMPOSE_LAYOUT.masters}+${COMPOSE_LAYOUT.masters * COMPOSE_LAYOUT.replicasPerMaster} (${path.basename(this.options.composeFile)}, ${this.image}, node timeout ${this.options.nodeTimeoutMs} ms)`;
  }

  private node(index: number): ComposeNode {
    const node = this.composeNodes[index];
    if (!node)
      throw new ClusterUsageError(`no node ${index}: this cluster has nodes 0-${this.composeNodes.length - 1}`);
    return node;
  }
}
