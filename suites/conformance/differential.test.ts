import { differentialSuite } from './support/differential.ts';

// The reference scripts against the reference model on the real cluster (sequential differential
// mode): every fixed tour, a few random sequences, and a mutant script the suite must catch. The
// deep version (many more sequences) is differential.full.test.ts.
differentialSuite({ idempotencyRuns: 2, lockRuns: 2, ratelimitRuns: 1, canFail: true });
