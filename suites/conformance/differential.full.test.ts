import { differentialSuite } from './support/differential.ts';

// differential.test.ts, deep: ten times the random sequences of `npm test`.
differentialSuite({ idempotencyRuns: 30, lockRuns: 30, ratelimitRuns: 20, canFail: false });
