import { EnvironmentError } from '../../src/cluster/errors.ts';
import { LocalCluster } from '../../src/cluster/local.ts';

/**
 * One LocalCluster (3 masters + 3 replicas behind Toxiproxy, the defaults) for every real-cluster
 * test file of a vitest worker, instead of one cluster started and torn down per file.
 *
 * How a test file gets it:
 *
 *   import { sharedCluster } from '../support/shared-cluster.ts';
 *   let cluster: LocalCluster;
 *   beforeAll(async () => {
 *     cluster = await sharedCluster();
 *   });
 *   // no afterAll dispose: the cluster belongs to the worker, not to the file
 *
 * and nothing else: the `real` and `full` projects of the vitest configs run their files one after
 * another in one worker process with `isolate: false`, which is what lets this module's state outlive
 * a file. Under any other config each file simply gets a cluster of its own.
 *
 * Each call hands the cluster back as a fresh start would: healed (toxics removed, proxies enabled,
 * nodes thawed and restarted, ready), the start masters serving their start slots again with their
 * start replicas (failovers undone), no keys, no cached scripts, no functions, and the settings a
 * test may change (maxmemory, its policy, busy-reply-threshold) back at their start values. So a file
 * may fail nodes over, flush caches or set maxmemory without telling the next file. A cluster that
 * cannot be brought back is disposed of and replaced by a new one, so one file's wreck is not the
 * next file's failure.
 *
 * Files that need a cluster with other options (node timeout, maxmemory at start, no replicas is not
 * one: a 3+3 cluster serves those tests too) or that test starting and stopping itself (teardown,
 * compose, `chaoslua cluster up`) start their own with LocalCluster.start() and dispose of it.
 *
 * Nothing outlives the worker: the cluster's processes run under the reaper (src/cluster/reaper.ts:
 * exit and signal hooks, pdeathsig, a watchdog), which ends them when the worker process ends, however
 * it ends.
 */

interface Shared {
  cluster: LocalCluster;
  /** The topology right after start ("n0 master 0-5460 <- n3 | ..."): what a handed-back cluster must show. */
  startTopology: string;
  /** CONFIG values right after start, restored on every hand-back. */
  startConfig: Record<string, string>;
  /** Clusters started by this worker so far (1 unless one had to be replaced). */
  started: number;
}

/** Settings a test may change with CONFIG SET; restored on every node before a file gets the cluster. */
const RESTORED_CONFIG = ['maxmemory', 'maxmemory-policy', 'busy-reply-threshold'] as const;

// On globalThis, not in a module variable, so that a module graph evaluated again in the same worker
// still finds the one cluster instead of starting a second.
const KEY = Symbol.for('chaoslua.tests.sharedCluster');
const slot = globalThis as unknown as { [KEY]?: Promise<Shared> };

/** The worker's shared cluster, as if freshly started (see above). */
export async function sharedCluster(): Promise<LocalCluster> {
  const previous = slot[KEY];
  if (!previous) return (await startShared(0)).cluster;
  let shared: Shared;
  try {
    shared = await previous;
  } catch {
    return (await startShared(0)).cluster;
  }
  try {
    await restore(shared);
    return shared.cluster;
  } catch (error) {
    // Reported, not hidden: a cluster that will not come back is a fact about the harness.
    console.warn(`shared cluster: replaced by a new one (${(error as Error).message})`);
    await shared.cluster.dispose();
    return (await startShared(shared.started)).cluster;
  }
}

/** How many clusters this worker has started (a test of this module, and a figure for reports). */
export async function sharedClustersStarted(): Promise<number> {
  return slot[KEY] ? (await slot[KEY]).started : 0;
}

function startShared(startedBefore: number): Promise<Shared> {
  const starting = (async (): Promise<Shared> => {
    const cluster = await LocalCluster.start();
    const startTopology = String(await cluster.topology());
    const startConfig: Record<string, string> = {};
    for (const name of RESTORED_CONFIG)
      startConfig[name] = configValue(await cluster.command(0, 'CONFIG', 'GET', name), name);
    return { cluster, startTopology, startConfig, started: startedBefore + 1 };
  })();
  slot[KEY] = starting;
  return starting;
}

function configValue(reply: unknown, name: string): string {
  if (!Array.isArray(reply) || reply[0] !== name || typeof reply[1] !== 'string')
    throw new EnvironmentError(`CONFIG GET ${name} answered ${JSON.stringify(reply)}`);
  return reply[1];
}

async function restore(shared: Shared): Promise<void> {
  const { cluster } = shared;
  await cluster.heal();
  await undoFailovers(shared);
  const topology = await cluster.topology();
  for (const node of topology.nodes) {
    for (const [name, value] of Object.entries(shared.startConfig))
      await cluster.command(node.node.index, 'CONFIG', 'SET', name, value);
    await cluster.command(node.node.index, 'SCRIPT', 'FLUSH');
    if (node.role === 'master') {
      await cluster.command(node.node.index, 'FLUSHALL');
      await cluster.command(node.node.index, 'FUNCTION', 'FLUSH');
    }
  }
}

/**
 * Failovers leave the start replicas as masters. A default (handshake) failover of each start master
 * that is now a replica gives it back its slots; then the layout must be the start layout exactly.
 */
async function undoFailovers(shared: Shared): Promise<void> {
  const { cluster } = shared;
  const masters = cluster.options.masters;
  for (let round = 0; round < 2 && String(await cluster.topology()) !== shared.startTopology; round++) {
    const topology = await cluster.topology();
    for (const node of topology.nodes) {
      if (node.node.index < masters && node.role === 'replica') {
        await cluster.failover(node.node.index, 'default');
        await cluster.waitReady();
      }
    }
  }
  const now = String(await cluster.topology());
  if (now !== shared.startTopology)
    throw new EnvironmentError(`topology ${now} is not the start layout ${shared.startTopology}`);
}

/**
 * `job` on the shared cluster; when the cluster fails under it (an EnvironmentError: it could not be
 * healed between runs), once more on a cluster brought back or replaced. That is a fact about the
 * environment, not a verdict on what the job tests; a second failure is thrown.
 */
export async function withSharedCluster<T>(job: (cluster: LocalCluster) => Promise<T>): Promise<T> {
  try {
    return await job(await sharedCluster());
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    console.warn(`shared cluster: job re-run after an environment failure (${error.message})`);
    return job(await sharedCluster());
  }
}
