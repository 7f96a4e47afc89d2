import type { TestProjectInlineConfiguration } from 'vitest/config';

/** Test files that only `npm run test:full` runs. */
export const FULL_ONLY = '**/*.full.test.ts';

/**
 * A project of files that start real redis-server and Toxiproxy processes: one file at a time
 * (2 cores, and each run's timing must be its own), all in ONE forked worker with `isolate: false`
 * so that module state, and with it the shared cluster of suites/support/shared-cluster.ts,
 * survives from one file to the next. A file that needs a module mocked must not rely on vi.mock
 * here (the module may already be loaded by an earlier file): pass the dependency in instead.
 * Its globalSetup fails the run if any process it started outlives it (no-leftovers.global.ts).
 */
export function realProject(name: string, include: string[], exclude: string[], { groupOrder, testTimeout = 180_000 }: { groupOrder: number; testTimeout?: number }): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include,
      exclude,
      pool: 'forks',
      isolate: false,
      fileParallelism: false,
      testTimeout,
      hookTimeout: 120_000,
      sequence: { groupOrder },
      globalSetup: ['suites/support/no-leftovers.global.ts'],
    },
  };
}
