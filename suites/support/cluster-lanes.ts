import { EnvironmentError } from '../../src/cluster/errors.ts';
import { LocalCluster } from '../../src/cluster/local.ts';
import type { LocalClusterConstraints } from '../../src/cluster/options.ts';
import { withSharedCluster } from './shared-cluster.ts';

/**
 * Several clusters for one test file's independent jobs (each a chaos job that mostly waits on
 * faults, heals and leases), so `it.concurrent` tests run side by side: lane 0 is the worker's shared
 * cluster, the others are started on first use and disposed by dispose(). A job takes the first free
 * lane and waits for one when all are busy. As with the shared cluster, a job the environment broke
 * (EnvironmentError) is re-run once on a fresh cluster. With `constraints` (another server's binary,
 * say), every lane is a cluster of its own started with them: the shared cluster runs the default.
 */
export interface ClusterLanes {
  run<T>(job: (cluster: LocalCluster) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

type Lane = <T>(job: (cluster: LocalCluster) => Promise<T>) => Promise<T>;

export function clusterLanes(count: number, constraints?: LocalClusterConstraints): ClusterLanes {
  const shared = constraints === undefined ? [withSharedCluster] : [];
  const started: (LocalCluster | undefined)[] = Array.from({ length: count - shared.length }, () => undefined);
  const own =
    (i: number): Lane =>
    async (job) => {
      started[i] ??= await LocalCluster.start(constraints);
      try {
        return await job(started[i]!);
      } catch (error) {
        if (!(error instanceof EnvironmentError)) throw error;
        console.warn(
          `cluster lane ${i + 1}: job re-run on a new cluster after an environment failure (${error.message})`,
        );
        await started[i]!.dispose();
        started[i] = await LocalCluster.start(constraints);
        return job(started[i]!);
      }
    };
  const free: Lane[] = [...shared, ...started.map((_, i) => own(i))].reverse();
  const waiting: ((lane: Lane) => void)[] = [];
  return {
    async run(job) {
      const lane = free.pop() ?? (await new Promise<Lane>((resolve) => waiting.push(resolve)));
      try {
        return await lane(job);
      } finally {
        const next = waiting.shift();
        if (next) next(lane);
        else free.push(lane);
      }
    },
    async dispose() {
      await Promise.all(started.map((c) => c?.dispose()));
    },
  };
}
