// Time for the chaos job to reject each mutant of scenarios/mutants, over several seeds, on one
// LocalCluster started once (its start-up is not counted). Prints every job, then per mutant the
// median and worst runs and seconds to the first failure, and the median shrunk length.
// Run: npx tsx bench/mutants.ts [seeds=6] [name-filter] ; SHRINK_RUNS (default 0: no shrinking), RUN_CAP (default 60), GAPS=1,
// SEED_INDEX=a-b (only seeds k = a..b-1 of the sequence, so a long bench splits into shorter commands)
import { loadMutants } from '../suites/certify/support/catalogue.ts';
import { chaosJob, openerFor, type JobVerdict } from '../suites/certify/support/job.ts';
import { SharedCluster } from '../suites/certify/support/shared-cluster.ts';
import { median } from './stats.ts';

const seeds = Number(process.argv[2] ?? 6);
const filter = process.argv[3] ?? '';
const shrinkRuns = Number(process.env.SHRINK_RUNS ?? 0);
const runCap = Number(process.env.RUN_CAP ?? 60);
const [firstSeed, endSeed] = (process.env.SEED_INDEX ?? `0-${seeds}`).split('-').map(Number);
if (
  !(
    Number.isInteger(firstSeed) &&
    Number.isInteger(endSeed) &&
    0 <= firstSeed &&
    firstSeed < endSeed &&
    endSeed <= seeds
  )
) {
  throw new RangeError(`SEED_INDEX must be a-b with 0 <= a < b <= ${seeds}, got '${process.env.SEED_INDEX}'`);
}
// Known gaps (mutant.json "gap") take their whole run cap; GAPS=1 includes them.
console.log(
  `SHRINK_RUNS=${shrinkRuns} RUN_CAP=${runCap}${process.env.GAPS === '1' ? ' GAPS=1' : ''}${process.env.SEED_INDEX ? ` SEED_INDEX=${process.env.SEED_INDEX}` : ''} npx tsx bench/mutants.ts ${seeds}${filter ? ` ${filter}` : ''}`,
);
console.log(
  `${endSeed - firstSeed} seeds (1000 + 7919 k, k = ${firstSeed}..${endSeed - 1}), every fault, ${shrinkRuns ? `${shrinkRuns} shrink runs` : 'no shrinking'}, at most ${runCap} runs a job, after the cluster is ready`,
);
const mutants = loadMutants().filter(
  (m) => `${m.pattern}/${m.name}`.includes(filter) && (!m.gap || process.env.GAPS === '1'),
);

const cluster = new SharedCluster();
await cluster.get();
const rows: string[] = [];
try {
  for (const mutant of mutants) {
    const jobs: JobVerdict[] = [];
    for (let s = firstSeed; s < endSeed; s++) {
      const seed = 1_000 + 7_919 * s;
      const job = await cluster.withRetry((c) =>
        chaosJob(c, mutant.pattern, openerFor(mutant.pattern, mutant.kind, mutant.impl), {
          seed,
          runs: runCap,
          shrinkRuns,
        }),
      );
      jobs.push(job);
      const first = job.firstFailure
        ? `run ${job.firstFailure.run} at ${job.firstFailure.seconds.toFixed(1)} s`
        : 'NOT REJECTED';
      console.log(
        `${mutant.pattern}/${mutant.name} seed ${seed}: ${first}; named ${job.named.join(', ') || '-'}; shrunk ${job.shrunkOps ?? '-'} ops; ${job.runs} runs, ${job.seconds.toFixed(1)} s`,
      );
      if (job.messages[0]) console.log(`    ${job.messages[0].slice(0, 300)}`);
    }
    const caught = jobs.filter((j) => j.firstFailure);
    const runs = caught.map((j) => j.firstFailure!.run);
    const secs = caught.map((j) => j.firstFailure!.seconds);
    const shrunk = caught.flatMap((j) => (j.shrunkOps === undefined ? [] : [j.shrunkOps]));
    const named = [...new Set(caught.flatMap((j) => j.named))].join(',');
    rows.push(
      [
        `${mutant.pattern}/${mutant.name}`.padEnd(44),
        `${caught.length}/${jobs.length}`.padStart(5),
        String(median(runs)).padStart(6),
        String(Math.max(...runs, 0)).padStart(5),
        median(secs).toFixed(1).padStart(7),
        Math.max(...secs, 0)
          .toFixed(1)
          .padStart(6),
        (shrunk.length ? String(median(shrunk)) : '-').padStart(7),
        ` ${mutant.expect === named ? named : `${named} (expected ${mutant.expect})`}`,
      ].join(' '),
    );
  }
} finally {
  await cluster.dispose();
}
if (cluster.replaced)
  console.log(`\n(${cluster.replaced} job(s) re-run on a fresh cluster after the cluster could not be healed)`);
console.log(`\n${'mutant'.padEnd(44)} caught  runs(med  max)   s(med   max) shrunk  named`);
for (const row of rows) console.log(row);
