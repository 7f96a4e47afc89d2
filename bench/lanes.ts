// Mutants on one cluster and on N at once (--clusters), alternated seed by seed so both see the same
// machine: is any power lost on N lanes (caught within the run cap, runs to the first failure), and
// how long does shrinking the first failure take on 1 cluster and on N (the candidates of fast-check's
// shrink stream run side by side)? The clusters are started once; their start-up is not counted.
// Run: npx tsx bench/lanes.ts [seeds=4] [mutant filters, comma list=a sample] [lanes=auto]
// RUN_CAP (default 40, certify's default runs), SHRINK_RUNS (default 30, certify's default),
// SHRINK_TIME seconds (default 0: no limit; certify's default is 30)
import { LocalCluster } from '../src/cluster/local.ts';
import { autoClusters } from '../src/cluster/capacity.ts';
import { loadMutants } from '../suites/certify/support/catalogue.ts';
import { chaosJob, openerFor, type JobVerdict } from '../suites/certify/support/job.ts';
import { median } from './stats.ts';

const seeds = Number(process.argv[2] ?? 4);
const SAMPLE =
  'idempotency/release-read-then-delete,lock/release-get-then-delete,ratelimit/client-side-count,semaphore/acquire-count-then-add,gcra/client-side-tat';
const filters = (process.argv[3] && process.argv[3] !== 'sample' ? process.argv[3] : SAMPLE).split(',');
const n = process.argv[4] && process.argv[4] !== 'auto' ? Number(process.argv[4]) : autoClusters();
const runCap = Number(process.env.RUN_CAP ?? 40);
const shrinkRuns = Number(process.env.SHRINK_RUNS ?? 30);
const shrinkTimeMs = Number(process.env.SHRINK_TIME ?? 0) * 1000;
const mutants = loadMutants().filter((m) => filters.some((f) => `${m.pattern}/${m.name}`.includes(f)));
if (mutants.length === 0) throw new Error(`no mutant matches ${filters.join(', ')}`);
console.log(
  `npx tsx bench/lanes.ts ${process.argv.slice(2).join(' ')}  (RUN_CAP=${runCap} SHRINK_RUNS=${shrinkRuns} SHRINK_TIME=${shrinkTimeMs / 1000})`,
);
console.log(
  `${mutants.length} mutants x ${seeds} seeds (1000 + 7919 k), every fault, on 1 cluster and on ${n}, alternated`,
);

const lanes = await Promise.all(Array.from({ length: n }, () => LocalCluster.start()));
const jobs = new Map<string, JobVerdict[]>();
try {
  for (const mutant of mutants) {
    for (let k = 0; k < seeds; k++) {
      const seed = 1_000 + 7_919 * k;
      const order = k % 2 === 0 ? [1, n] : [n, 1];
      for (const count of order) {
        const job = await chaosJob(
          count === 1 ? lanes[0] : lanes.slice(0, count),
          mutant.pattern,
          openerFor(mutant.pattern, mutant.kind, mutant.impl),
          { seed, runs: runCap, shrinkRuns, ...(shrinkTimeMs ? { shrinkTimeMs } : {}) },
        );
        const key = `${mutant.pattern}/${mutant.name} ${count}`;
        jobs.set(key, [...(jobs.get(key) ?? []), job]);
        const caught = job.firstFailure
          ? `run ${job.firstFailure.run} at ${job.firstFailure.seconds.toFixed(1)} s`
          : 'NOT CAUGHT';
        const shrunk = job.shrinking
          ? `; shrunk to ${job.shrunkOps} ops in ${job.shrinking.seconds.toFixed(1)} s (stopped: ${job.shrinking.stopped})`
          : '';
        console.log(
          `${mutant.pattern}/${mutant.name} seed ${seed}, ${count} cluster(s): ${caught}; named ${job.named.join(', ') || '-'}${shrunk}`,
        );
      }
    }
  }
  console.log(`\n| mutant | clusters | caught | median run of first failure | median shrinking | median shrunk ops |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: |`);
  const all = new Map<number, number[]>();
  for (const mutant of mutants) {
    for (const count of [1, n]) {
      const js = jobs.get(`${mutant.pattern}/${mutant.name} ${count}`) ?? [];
      const caught = js.filter((j) => j.firstFailure);
      const shrink = js.flatMap((j) => (j.shrinking ? [j.shrinking.seconds] : []));
      all.set(count, [...(all.get(count) ?? []), ...shrink]);
      const ops = js.flatMap((j) => (j.shrunkOps === undefined ? [] : [j.shrunkOps]));
      console.log(
        `| ${mutant.pattern}/${mutant.name} | ${count} | ${caught.length}/${js.length} | ${caught.length ? median(caught.map((j) => j.firstFailure!.run)) : '-'} | ${shrink.length ? `${median(shrink).toFixed(1)} s` : '-'} | ${ops.length ? median(ops) : '-'} |`,
      );
    }
  }
  const [one, many] = [median(all.get(1) ?? []), median(all.get(n) ?? [])];
  if (shrinkRuns > 0)
    console.log(
      `\nshrinking, median over every shrunk failure: ${one.toFixed(1)} s on 1 cluster, ${many.toFixed(1)} s on ${n} (${(one / many).toFixed(2)}x)`,
    );
  const caught = (count: number) =>
    mutants.reduce(
      (sum, m) => sum + (jobs.get(`${m.pattern}/${m.name} ${count}`) ?? []).filter((j) => j.firstFailure).length,
      0,
    );
  console.log(
    `caught: ${caught(1)} of ${mutants.length * seeds} jobs on 1 cluster, ${caught(n)} of ${mutants.length * seeds} on ${n}`,
  );
} finally {
  await Promise.allSettled(lanes.map((c) => c.dispose()));
}
