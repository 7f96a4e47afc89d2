import type { TestProjectInlineConfiguration } from 'vitest/config';

/** Test files that only `npm run test:full` runs. */
export const FULL_ONLY = '**/*.full.test.ts';

/**
 * A project of files that start real redis-server and Toxiproxy processes: by default one file at a
 * time (2 cores), all in ONE forked worker with `isolate: false`
 * so that module state, and with it the shared cluster of suites/support/shared-cluster.ts,
 * survives from one file to the next. A file that needs a module mocked must not rely on vi.mock
 * here (the module may already be loaded by an earlier file): pass the dependency in instead.
 * With `lanes` > 1, that many forked workers take the files in turn, each keeping its own shared
 * cluster: a chaos job mostly waits (on faults, heals, leases), so two cores hold a few at once.
 * Its globalSetup fails the run if any process it started outlives it (no-leftovers.global.ts).
 */
export function realProject(
  name: string,
  include: string[],
  exclude: string[],
  { groupOrder, testTimeout = 180_000, lanes = 1 }: { groupOrder: number; testTimeout?: number; lanes?: number },
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include,
      exclude,
      pool: 'forks',
      isolate: false,
      // lanes > 1: that many worker processes take the files in turn, each with its own shared cluster.
      fileParallelism: lanes > 1,
      maxWorkers: lanes,
      testTimeout,
      hookTimeout: 120_000,
      sequence: { groupOrder },
      globalSetup: ['suites/support/no-leftovers.global.ts'],
    },
  };
}
