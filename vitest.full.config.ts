import { defineConfig } from 'vitest/config';
import { FULL_ONLY, realProject } from './suites/support/projects.ts';

// `npm run test:full`: the sweeps too long for `npm test` (many seeds, many runs), named
// *.full.test.ts, in two groups one after the other:
// - full: the files that share nothing but the machine, three at a time, each lane of workers with
//   its own shared cluster (a chaos job mostly waits on faults, heals and leases, so the two cores
//   hold three; CHAOSLUA_FULL_LANES=1 runs them one at a time, as before);
// - full-alone: the files that must have the machine or the host's network to themselves, one at a
//   time: the slow mutants and the third-party pins (three and five jobs at a time on clusters of their own,
//   and four for the pins on Redis 8.2 and Valkey 8.1:
//   a mutant's pinned seed was measured with four clusters busy, and with three more lanes beside
//   it release-no-prune survived 50 runs it needs 7 for at the median), the soak (two clusters per
//   pattern, ten at once, of its own), the certify under CPU burners, the netns files (they compare the host's
//   namespaces and ruleset before and after).
const ALONE = [
  'suites/certify/mutants.full.test.ts',
  'suites/certify/third-party.full.test.ts',
  'suites/certify/third-party-servers.full.test.ts',
  'suites/chaos/soak.full.test.ts',
  'suites/certify/under-load.full.test.ts',
  'suites/cluster/netns-teardown.full.test.ts',
  'suites/chaos/netns-split-brain.full.test.ts',
  'suites/certify/netns-mutants.full.test.ts',
];
const lanes = Number(process.env.CHAOSLUA_FULL_LANES ?? 3);
if (!Number.isInteger(lanes) || lanes < 1)
  throw new Error(`CHAOSLUA_FULL_LANES must be a whole number of at least 1, got ${process.env.CHAOSLUA_FULL_LANES}`);

export default defineConfig({
  test: {
    projects: [
      realProject('full', [`suites/**/${FULL_ONLY}`], ALONE, { groupOrder: 0, testTimeout: 3_600_000, lanes }),
      realProject('full-alone', ALONE, [], { groupOrder: 1, testTimeout: 3_600_000 }),
    ],
  },
});
