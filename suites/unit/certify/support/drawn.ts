import fc from 'fast-check';
import { jobChaosOptions } from '../../../../src/certify/chaos-options.ts';
import { discardAllowance } from '../../../../src/certify/chaos.ts';
import { FAULT_NAMES, scheduleArbitrary } from '../../../../src/generator/index.ts';
import { PATTERNS, type PatternName } from '../../../../src/patterns/index.ts';
import { drawsFor, ownsDraw, type Shard } from '../../../../src/runner/shard.ts';

/**
 * The schedules a job, a shard of one or a lane of one would run: its first `runs` owned draws, as the
 * chaos loop (src/certify/chaos.ts) takes them: every fresh draw counted, only its own run, fast-check
 * asked for drawsFor(runs + allowance) draws of the real generator.
 */
export async function drawn(
  pattern: PatternName,
  seed: number,
  runs: number,
  shard?: Shard,
  settings?: Record<string, number>,
): Promise<string[]> {
  const options = jobChaosOptions({
    runs,
    seed,
    faults: FAULT_NAMES,
    timeLimitMs: 1,
    shrinkRuns: 0,
    nodeTimeoutMs: 1_000,
    shard,
    settings,
  });
  const taken: string[] = [];
  let draws = 0;
  await fc.check(
    fc.asyncProperty(scheduleArbitrary({ ...options.schedule, pattern: PATTERNS[pattern] }), async (schedule) => {
      if (!ownsDraw(options.shard, draws++)) return true;
      if (taken.length < runs) taken.push(JSON.stringify(schedule));
      return true;
    }),
    { numRuns: drawsFor(runs + discardAllowance(runs), options.shard), seed },
  );
  return taken;
}
