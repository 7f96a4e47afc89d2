import { defineConfig } from 'vitest/config';
import { FULL_ONLY, realProject } from './suites/support/projects.ts';

// `npm run test:full`: the sweeps too long for `npm test` (many seeds, many runs), named
// *.full.test.ts; they run like the real-cluster project of `npm test`, on one shared cluster.
export default defineConfig({
  test: {
    projects: [realProject('full', [`suites/**/${FULL_ONLY}`], [], { groupOrder: 0, testTimeout: 3_600_000 })],
  },
});
