import { examplesSuite } from './support/examples-suite.ts';

// The Python and Go examples through cmd:, one run per pattern under every fault, and each with a
// known bug that certification must reject; more runs in examples.full.test.ts (npm run test:full).
examplesSuite(1, true);
