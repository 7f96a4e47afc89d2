// How often a default run stages a race at a critical instant (src/generator/races.ts), per pattern:
// the share of drawn schedules with a race, with its aimed hold, and each race's share. Drawn, not
// run: the generator alone, every fault, the default constraints certify uses.
// Run: npx tsx bench/races.ts [schedules=2000] [seed=1]
import fc from 'fast-check';
import { jobChaosOptions } from '../src/certify/chaos-options.ts';
import { FAULT_NAMES, isAimedDelay, scheduleArbitrary } from '../src/generator/index.ts';
import { PATTERN_NAMES, PATTERNS, type AnyPattern } from '../src/patterns/index.ts';

const count = Number(process.argv[2] ?? 2_000);
const seed = Number(process.argv[3] ?? 1);
console.log(`npx tsx bench/races.ts ${count} ${seed}`);
console.log('| pattern | runs staging a race | with its aimed hold | each race (share of runs) |');
console.log('| --- | ---: | ---: | --- |');
for (const name of PATTERN_NAMES) {
  const pattern = PATTERNS[name] as AnyPattern;
  const options = jobChaosOptions({
    runs: 1,
    seed,
    faults: FAULT_NAMES,
    timeLimitMs: 1,
    shrinkRuns: 0,
    nodeTimeoutMs: 1_000,
  });
  const schedules = fc.sample(scheduleArbitrary({ ...options.schedule, pattern }), { numRuns: count, seed });
  const raced = schedules.filter((s) => s.race);
  const held = raced.filter((s) => s.faults.some(isAimedDelay));
  const byRace = new Map<string, number>();
  for (const s of raced) byRace.set(s.race!.name, (byRace.get(s.race!.name) ?? 0) + 1);
  const pct = (n: number) => `${((100 * n) / count).toFixed(0)}%`;
  console.log(
    `| ${name} | ${pct(raced.length)} | ${pct(held.length)} | ${[...byRace].map(([race, n]) => `${race} ${pct(n)}`).join('; ')} |`,
  );
}
