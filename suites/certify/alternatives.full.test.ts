import { alternativesSuite } from './support/alternatives-suite.ts';

// `npm run test:full`: every alternative correct implementation through 12 runs under every fault.
alternativesSuite(12, 20_261_201);
