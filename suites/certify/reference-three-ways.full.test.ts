import { referenceSuite } from './support/reference-suite.ts';

// `npm run test:full`: the reference implementation of every pattern, through lua: and module:.
referenceSuite([
  ['idempotency', 'lua'],
  ['idempotency', 'module'],
  ['lock', 'lua'],
  ['lock', 'module'],
  ['ratelimit', 'lua'],
  ['ratelimit', 'module'],
]);
