// Soak: the reference implementation under every fault until a time limit; prints runs, operations,
// faults, replication losses and failures, per pattern, and the search states the checker spent per
// key (median and maximum, with the run that set the maximum): how far the hardest key stayed from
// the budget, where it would turn 'unknown'. Any failure is a false alarm or a real bug: it is
// printed with its violations and the run exits 1.
// Run: npx tsx bench/soak.ts [minutes=10] [pattern=idempotency] [runs=100000] [seed]
import { writeFileSync } from 'node:fs';
import { check } from '../src/checker/index.ts';
import { defaultCheckOptions } from '../src/checker/options.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import { FAULT_NAMES } from '../src/generator/index.ts';
import { describeFailure, referenceChaos } from '../src/certify/reference-chaos.ts';
import { patternNamed } from '../src/patterns/index.ts';

const minutes = Number(process.argv[2] ?? 10);
const pattern = patternNamed(process.argv[3] ?? 'idempotency', 'bench/soak.ts');
const runs = Number(process.argv[4] ?? 100_000);
const seed = Number(process.argv[5] ?? Date.now() % 2 ** 31);
console.log(`npx tsx bench/soak.ts ${minutes} ${pattern.name} ${runs} ${seed}`);

/** States per key of every fresh run; re-checked here because the chaos loop keeps only the verdict. */
const statesPerKey: number[] = [];
let hardest = { states: 0, run: 0, key: '', ops: 0 };
let unknownKeys = 0;

const cluster = await LocalCluster.start();
try {
  const outcome = await referenceChaos(cluster, {
    pattern,
    runs,
    seed,
    faults: FAULT_NAMES,
    timeLimitMs: minutes * 60_000,
    onRun: (tally, last) => {
      if (last.shrinking) return;
      for (const key of check(last.history, pattern, { minimise: false }).keys) {
        statesPerKey.push(key.statesExplored);
        if (key.verdict === 'unknown') unknownKeys++;
        if (key.statesExplored > hardest.states)
          hardest = { states: key.statesExplored, run: tally.runs, key: key.key, ops: key.ops };
      }
    },
  });
  const t = outcome.tally;
  console.log(
    `soak ${pattern} seed ${seed}: ${t.runs} runs, ${t.ops} operations, ${t.faults} faults ${JSON.stringify(t.faultCounts)}, ` +
      `${t.replicationLosses} replication losses, ${t.failures} failures in ${(outcome.ms / 1000).toFixed(0)} s`,
  );
  const sorted = [...statesPerKey].sort((a, b) => a - b);
  console.log(
    `search states per key over ${sorted.length} keys: median ${sorted[Math.floor(sorted.length / 2)] ?? 0}, ` +
      `max ${hardest.states} (run ${hardest.run}, key ${hardest.key}, ${hardest.ops} ops), ` +
      `budget ${defaultCheckOptions.budget}, ${unknownKeys} key(s) unknown`,
  );
  if (outcome.failure) {
    console.log(describeFailure(outcome));
    const file = `/tmp/chaoslua-soak-failure-${seed}.json`;
    writeFileSync(
      file,
      JSON.stringify(
        {
          pattern,
          schedule: outcome.failure.schedule,
          history: outcome.failure.history,
          result: outcome.failure.result,
        },
        null,
        2,
      ),
    );
    console.log(`history written to ${file}`);
    process.exitCode = 1;
  }
} finally {
  await cluster.dispose();
}
