import { LocalCluster } from '../cluster/local.ts';
import type { LocalClusterConstraints } from '../cluster/options.ts';

/**
 * Clusters for a batch of scenarios, one per distinct option set: a cluster costs seconds to
 * start on two cores, and most scenarios only need 3 masters without replicas. Scenarios run one
 * at a time and the runner heals after every step, so sharing never lets one scenario see another's faults.
 */
export class ClusterPool {
  private readonly clusters = new Map<string, Promise<LocalCluster>>();

  get(options: LocalClusterConstraints): Promise<LocalCluster> {
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
    let cluster = this.clusters.get(key);
    if (!cluster) {
      cluster = LocalCluster.start(options);
      // A failed start is not cached: the caller sees the error, a later get() tries again.
      cluster.catch(() => this.clusters.delete(key));
      this.clusters.set(key, cluster);
    }
    return cluster;
  }

  /** Stop every cluster this pool started. */
  async dispose(): Promise<void> {
    const started = [...this.clusters.values()];
    this.clusters.clear();
    await Promise.all(
      started.map((c) =>
        c.then(
          (cluster) => cluster.dispose(),
          () => undefined,
        ),
      ),
    );
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}
