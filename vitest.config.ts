import { defineConfig } from 'vitest/config';
import { FULL_ONLY, realProject } from './suites/support/projects.ts';

// `npm test`. Two projects, one after the other (sequence.groupOrder: vitest runs a project with a
// single worker and projects with several in separate groups):
// - unit: pure suites, in worker threads (far cheaper to start than a process per file);
// - real: everything that starts redis-server and Toxiproxy, two files at a time, each in a worker
//   process that keeps its module state between files, so that a worker's files share one cluster
//   (suites/support/shared-cluster.ts) instead of starting one each; then real-alone, the files
//   that need the machine to themselves, one at a time.
// The long sweeps (*.full.test.ts) are `npm run test:full` (vitest.full.config.ts).
// Coverage (`npm test` runs the unit project with --coverage): the checker and the models (the
// patterns' models and classifiers included) are pure code that the unit suites must exercise
// nearly whole; the thresholds sit a little under what they reach (97-98% of lines, 91-96% of branches) so that new code comes with its tests.
const REAL = 'suites/{cluster,conformance,chaos,certify,scenarios,report,cli}/**/*.test.ts';
/**
 * Real-cluster files that run after the others, one at a time: teardown checks that the ports its
 * cluster held are free again (another worker's new cluster could take one), and the --clusters
 * jobs start five clusters of their own.
 */
const REAL_ALONE = ['suites/cluster/teardown.test.ts', 'suites/certify/lanes.test.ts'];
/** Unit files that replace a module with vi.mock. */
const MOCKS_MODULES = ['suites/unit/cluster/select.test.ts'];

export default defineConfig({
  test: {
    coverage: {
      provider: 'v8',
      include: ['src/checker/**', 'src/model/**', 'src/patterns/*/model.ts', 'src/patterns/*/invariants.ts'],
      reporter: ['text-summary'],
      thresholds: {
        // Each pattern's classifier counts with the checker, its model with the models, as before they
        // moved into src/patterns/<name>.
        '{src/checker/**,src/patterns/*/invariants.ts}': { lines: 95, statements: 95, functions: 95, branches: 88 },
        '{src/model/**,src/patterns/*/model.ts}': { lines: 95, statements: 95, functions: 95, branches: 90 },
      },
    },
    projects: [
      // Without isolation a worker keeps its module cache from one file to the next: the unit run
      // takes half the time (most of it was each file importing the same modules again). Mocks are
      // restored after every test; a file that replaces a module with vi.mock cannot share a cache
      // (the module may already be loaded), so those run isolated in 'unit-isolated'.
      {
        test: {
          name: 'unit',
          include: ['suites/unit/**/*.test.ts'],
          exclude: [FULL_ONLY, ...MOCKS_MODULES],
          pool: 'threads',
          isolate: false,
          restoreMocks: true,
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: MOCKS_MODULES,
          pool: 'threads',
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      realProject('real', [REAL], [FULL_ONLY, ...REAL_ALONE], { groupOrder: 1, lanes: 2 }),
      realProject('real-alone', REAL_ALONE, [], { groupOrder: 2 }),
    ],
  },
});
