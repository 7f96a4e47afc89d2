// Soak: the reference implementation under every fault until a time limit; prints runs, operations,
// faults, replication losses and failures, per pattern. Any failure is a false alarm or a real bug:
// it is printed with its violations and the run exits 1.
// Run: npx tsx bench/soak.ts [minutes=10] [pattern=idempotency] [runs=100000] [seed]
import { writeFileSync } from 'node:fs';
import { LocalCluster } from '../src/cluster/local.ts';
import { FAULT_NAMES, type PatternName } from '../src/generator/index.ts';
import { describeFailure, referenceChaos } from '../src/certify/reference-chaos.ts';

const minutes = Number(process.argv[2] ?? 10);
const pattern = (process.argv[3] ?? 'idempotency') as PatternName;
const runs = Number(process.argv[4] ?? 100_000);
const seed = Number(process.argv[5] ?? Date.now() % 2 ** 31);
const cluster = await LocalCluster.start();
try {
  const outcome = await referenceChaos(cluster, { pattern, runs, seed, faults: FAULT_NAMES, timeLimitMs: minutes * 60_000 });
  const t = outcome.tally;
  console.log(`soak ${pattern} seed ${seed}: ${t.runs} runs, ${t.ops} operations, ${t.faults} faults ${JSON.stringify(t.faultCounts)}, ` +
    `${t.replicationLosses} replication losses, ${t.failures} failures in ${(outcome.ms / 1000).toFixed(0)} s`);
  if (outcome.failure) {
    console.log(describeFailure(outcome));
    const file = `/tmp/chaoslua-soak-failure-${seed}.json`;
    writeFileSync(file, JSON.stringify({ pattern, schedule: outcome.failure.schedule, history: outcome.failure.history, result: outcome.failure.result }, null, 2));
    console.log(`history written to ${file}`);
    process.exitCode = 1;
  }
} finally {
  await cluster.dispose();
}
