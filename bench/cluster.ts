// Time from LocalCluster.start() to ready, and from dispose() to no process left, over several
// rounds; prints each round and the medians. Run: npx tsx bench/cluster.ts [rounds=5]
import { isAlive } from '../src/cluster/alive.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import { fmt, median } from './stats.ts';

const rounds = Number(process.argv[2] ?? 5);
console.log(`npx tsx bench/cluster.ts ${rounds}`);
console.log(`${rounds} rounds of LocalCluster.start() to ready and dispose() to no process left; medians`);
const ready: number[] = [];
const teardown: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const t0 = performance.now();
  const cluster = await LocalCluster.start();
  const t1 = performance.now();
  const pids = [...cluster.processes().map((p) => p.pid!), cluster.toxiproxyPid!];
  await cluster.dispose();
  while (pids.some(isAlive)) await new Promise((r) => setTimeout(r, 1));
  const t2 = performance.now();
  ready.push(t1 - t0);
  teardown.push(t2 - t1);
  console.log(`round ${round}: start->ready ${fmt(t1 - t0)}   dispose->no processes ${fmt(t2 - t1)}`);
}
console.log(`median of ${rounds}: start->ready ${fmt(median(ready))}   dispose->no processes ${fmt(median(teardown))}`);
