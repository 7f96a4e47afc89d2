// Does dealing a job to several clusters cost power? A sample of mutants over the same seeds, each
// job on 1 cluster and on N (--clusters), alternated, 40 runs, every fault, no shrinking: whether
// it was rejected, and after how many runs. A seed names the same schedules whatever N is, so only
// timing (the box shared by N clusters) can change a catch.
// Run: npx tsx bench/lanes-power.ts [seeds=4] [clusters=4] [mutant names, comma list]
import { jobChaosOptions, MAX_CLIENTS } from '../src/certify/chaos-options.ts';
import { chaosOnLanes } from '../src/certify/lanes.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import { FAULT_NAMES } from '../src/generator/index.ts';
import { PATTERNS } from '../src/patterns/index.ts';
import { loadMutants } from '../suites/certify/support/catalogue.ts';
import { openerFor } from '../suites/certify/support/job.ts';
import { median } from './stats.ts';

const seeds = Number(process.argv[2] ?? 4);
const lanes = Number(process.argv[3] ?? 4);
const wanted = (process.argv[4] ?? 'semaphore/release-no-prune,semaphore/refresh-no-prune,idempotency/register-retry-adopts-pending').split(',');
const mutants = loadMutants().filter((m) => wanted.includes(`${m.pattern}/${m.name}`));
if (mutants.length !== wanted.length) throw new Error(`unknown mutant among ${wanted.join(', ')}`);
console.log(`npx tsx bench/lanes-power.ts ${process.argv.slice(2).join(' ')}`);
console.log(`${mutants.length} mutants × ${seeds} seeds (1000 + 7919 k), 40 runs, every fault, no shrinking, on 1 cluster and on ${lanes}, alternated`);

const clusters = await Promise.all(Array.from({ length: lanes }, () => LocalCluster.start()));
const results = new Map<string, { caught: number; runs: number[]; seconds: number[] }>();
try {
  for (const mutant of mutants) {
    for (let k = 0; k < seeds; k++) {
      const seed = 1000 + 7919 * k;
      const order = k % 2 === 0 ? [1, lanes] : [lanes, 1];
      for (const n of order) {
        const used = clusters.slice(0, n);
        await Promise.all(used.map((c) => c.heal()));
        const open = openerFor(mutant.pattern, mutant.kind, mutant.impl);
        const opened = await Promise.all(used.map((c) => open(c, MAX_CLIENTS)));
        try {
          const options = jobChaosOptions({ runs: 40, seed, faults: FAULT_NAMES, timeLimitMs: Number.POSITIVE_INFINITY, shrinkRuns: 0, nodeTimeoutMs: used[0].options.nodeTimeoutMs });
          const outcome = await chaosOnLanes(used.map((cluster, j) => ({ cluster, subjects: opened[j].subjects })), PATTERNS[mutant.pattern], options);
          const caught = outcome.failure !== undefined || opened.some((o) => o.findings().length > 0);
          const at = outcome.failure?.firstFailure;
          const row = results.get(`${mutant.name} ${n}`) ?? { caught: 0, runs: [], seconds: [] };
          if (caught) row.caught++;
          if (at) row.runs.push(at.run), row.seconds.push(at.seconds);
          results.set(`${mutant.name} ${n}`, row);
          console.log(`${mutant.pattern}/${mutant.name} seed ${seed} on ${n}: ${caught ? `caught at run ${at?.run ?? '?'} (${at?.seconds.toFixed(1) ?? '?'} s)` : `survived ${outcome.tally.runs} runs`}${outcome.environmentFailure ? ` (environment: ${outcome.environmentFailure})` : ''}`);
        } finally {
          await Promise.all(opened.map((o) => o.close()));
        }
      }
    }
  }
  console.log(`\n| mutant | caught on 1 | caught on ${lanes} | median first-failure run, 1 / ${lanes} | median seconds, 1 / ${lanes} |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const m of mutants) {
    const one = results.get(`${m.name} 1`)!;
    const many = results.get(`${m.name} ${lanes}`)!;
    console.log(`| ${m.pattern}/${m.name} | ${one.caught}/${seeds} | ${many.caught}/${seeds} | ${median(one.runs)} / ${median(many.runs)} | ${median(one.seconds).toFixed(1)} / ${median(many.seconds).toFixed(1)} |`);
  }
} finally {
  await Promise.all(clusters.map((c) => c.dispose()));
}
