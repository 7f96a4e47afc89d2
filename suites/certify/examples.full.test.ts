import { examplesSuite } from './support/examples-suite.ts';

// `npm run test:full`: the Python and Go examples through cmd:, 4 runs per pattern under every fault,
// and each with a known bug that certification must reject. (`npm test` proves the cmd: route with
// suites/certify/process-protocol.test.ts.)
examplesSuite(4, true);
