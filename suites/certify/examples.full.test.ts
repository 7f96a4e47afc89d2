import { examplesSuite } from './support/examples-suite.ts';

// `npm run test:full`: the Python and Go examples through cmd:, 6 runs per pattern under every fault.
examplesSuite(6, false);
