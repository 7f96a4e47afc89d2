// What a server clock step costs each reference implementation, as partition-loss.ts measures what a
// partition failover costs: per pattern and per step size, certify's chaos job on the reference with
// one fault only, clock-jump of that size either way (--set clock-jump=MS: on a master, on a replica,
// or on a replica then promoted), and how many keys a moved clock alone explains (clock losses), by
// the invariant the strict check named: one-winner / one-holder / at-most-limit are holders doubled,
// limit-respected hits let through, no-resurrection / model-conformance records gone or kept early or
// late. The leases in force: idempotency and lock 250 and 500 ms, semaphore 250 and 500 ms, a 1 s
// window of 3, GCRA 5 a second with a burst of 3 (the patterns' defaults).
// Run: npx tsx bench/clock-cost.ts [runs per cell=20] [clusters=4] [sizes=100,1000,5000]
import { check } from '../src/checker/index.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import { referenceChaos } from '../src/certify/reference-chaos.ts';
import { PATTERN_NAMES, PATTERNS, type AnyPattern } from '../src/patterns/index.ts';

const runs = Number(process.argv[2] ?? 20);
const lanes = Number(process.argv[3] ?? 4);
const sizes = (process.argv[4] ?? '100,1000,5000').split(',').map(Number);
console.log(`npx tsx bench/clock-cost.ts ${runs} ${lanes} ${sizes.join(',')}`);
console.log(
  `${runs} runs per pattern and step size, faults clock-jump only, on ${lanes} local clusters (Redis ${await version()}); seed 3900 + cell`,
);

async function version(): Promise<string> {
  const c = await LocalCluster.start();
  try {
    return await c.redisVersion();
  } finally {
    await c.dispose();
  }
}

const clusters = await Promise.all(Array.from({ length: lanes }, () => LocalCluster.start()));
const rows: string[] = [];
try {
  let cell = 0;
  for (const name of PATTERN_NAMES) {
    const pattern = PATTERNS[name] as AnyPattern;
    for (const size of sizes) {
      const byInvariant: Record<string, number> = {};
      let runsWithLoss = 0;
      let keys = 0;
      let steps = 0;
      const started = performance.now();
      const outcome = await referenceChaos(clusters, {
        pattern,
        runs,
        seed: 3900 + cell++,
        faults: ['clock-jump'],
        faultSettings: { 'clock-jump': size },
        onRun: (_tally, last) => {
          if (last.shrinking) return;
          steps += last.history.faults.filter((f) => f.kind === 'clock-jump').length;
          const result = check(last.history, pattern, { minimise: false });
          keys += result.keys.length;
          const losses = result.clockLosses ?? [];
          if (losses.length) runsWithLoss++;
          for (const loss of losses) byInvariant[loss.invariant] = (byInvariant[loss.invariant] ?? 0) + 1;
        },
      });
      const failures = outcome.tally.failures;
      const named =
        Object.entries(byInvariant)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || '-';
      const row = `| ${name} | ${size} ms | ${outcome.tally.runs} | ${steps} | ${keys} | ${runsWithLoss} | ${named} | ${failures} | ${((performance.now() - started) / 1000).toFixed(0)} s |`;
      rows.push(row);
      console.log(row);
    }
  }
} finally {
  await Promise.all(clusters.map((c) => c.dispose()));
}
console.log(
  '\n| pattern | step | runs | steps applied | keys judged | runs with a clock loss | clock losses by invariant | failures | time |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
for (const row of rows) console.log(row);
