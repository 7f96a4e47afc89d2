import { falseAlarmSuite } from './support/false-alarms-suite.ts';

// `npm run test:full`: many runs per pattern (CHAOSLUA_FALSE_ALARM_RUNS raises the idempotency
// count; the others get a third of it, at least 12).
const RUNS = Number(process.env.CHAOSLUA_FALSE_ALARM_RUNS ?? 36);
const OTHER_RUNS = Math.max(12, Math.ceil(RUNS / 3));
falseAlarmSuite({
  idempotency: { runs: RUNS, seed: 20261130 },
  lock: { runs: OTHER_RUNS, seed: 7 },
  ratelimit: { runs: OTHER_RUNS, seed: 11 },
  semaphore: { runs: OTHER_RUNS, seed: 13 },
  gcra: { runs: OTHER_RUNS, seed: 17 },
});
