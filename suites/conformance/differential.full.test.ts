import { differentialSuite } from './support/differential.ts';

// differential.test.ts, deep: 15-20 times the random sequences of `npm test`.
differentialSuite({ idempotencyRuns: 30, lockRuns: 30, ratelimitRuns: 20, canFail: false });
