import { alternativesSuite } from './support/alternatives-suite.ts';

// `npm run test:full`: every alternative correct implementation through 8 runs under every fault.
alternativesSuite(8, 20_261_201);
