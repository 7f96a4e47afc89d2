import { alternativesSuite } from './support/alternatives-suite.ts';

// `npm run test:full`: every alternative correct implementation through 8 runs under every fault
// (`npm test` certifies the module: route with the reference module in reference-three-ways.test.ts).
alternativesSuite(8, 20_261_201);
