import { EnvironmentError } from '../../../src/cluster/errors.ts';
import { LocalCluster } from '../../../src/cluster/local.ts';

/**
 * One LocalCluster for a whole suite. A cluster that cannot be healed between runs is an
 * environment failure, not a verdict on the implementation: the job is re-run once on a fresh
 * cluster, and a second environment failure is thrown.
 */
export class SharedCluster {
  private current: LocalCluster | undefined;
  /** Environment failures absorbed so far (reported, so a flaky environment is visible). */
  replaced = 0;

  async get(): Promise<LocalCluster> {
    this.current ??= await LocalCluster.start();
    return this.current;
  }

  async withRetry<T>(job: (cluster: LocalCluster) => Promise<T>): Promise<T> {
    try {
      return await job(await this.get());
    } catch (error) {
      if (!(error instanceof EnvironmentError)) throw error;
      await this.dispose();
      this.replaced++;
      return job(await this.get());
    }
  }

  async dispose(): Promise<void> {
    const cluster = this.current;
    this.current = undefined;
    await cluster?.dispose();
  }
}
