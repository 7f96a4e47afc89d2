import { alternativesSuite } from './support/alternatives-suite.ts';

// Every alternative correct implementation through one run of the chaos job under every fault (a
// mutant is caught in 1-2 runs on its pinned seed, so one clean run is a real hurdle); the many-run
// job is alternatives.full.test.ts.
alternativesSuite(1, 20_261_130);
