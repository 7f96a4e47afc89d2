import { referenceSuite } from './support/reference-suite.ts';

// One reference through module: (the lua: route is certified by zero-false-alarms.test.ts and
// replay.test.ts's jobs); every pattern through both is reference-three-ways.full.test.ts.
referenceSuite([['lock', 'module']]);
