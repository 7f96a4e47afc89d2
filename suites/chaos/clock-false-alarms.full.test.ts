import { parseFaultList } from '../../src/generator/index.ts';
import { falseAlarmSuite } from './support/false-alarms-suite.ts';

// Every reference under the server clock faults alone, so that every run moves clocks: a moved clock
// may explain a key (clock loss) but never makes a correct implementation fail. The long form is the
// soak with CHAOSLUA_SOAK_FAULTS=all,clocks (bench/results/soak-clocks.md).
const RUNS = Number(process.env.CHAOSLUA_CLOCK_FALSE_ALARM_RUNS ?? 4);
falseAlarmSuite(
  {
    idempotency: { runs: RUNS, seed: 39 },
    lock: { runs: RUNS, seed: 40 },
    ratelimit: { runs: RUNS, seed: 41 },
    semaphore: { runs: RUNS, seed: 42 },
    gcra: { runs: RUNS, seed: 43 },
  },
  { names: parseFaultList('clocks'), said: 'the server clock faults' },
);
