import { examplesSuite } from './support/examples-suite.ts';

// `npm run test:full`: the Python and Go examples through cmd:, 4 runs per pattern under every fault.
examplesSuite(4, false);
