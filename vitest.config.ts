import { defineConfig } from 'vitest/config';

// Two projects: pure unit suites run in parallel; everything that starts real redis-server
// and Toxiproxy processes runs one file at a time (2 cores; each file owns its cluster).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['suites/unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'real',
          include: ['suites/{cluster,conformance,chaos,certify,scenarios,report,cli}/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
