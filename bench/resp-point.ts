// What the RESP point costs with no fault armed: harness throughput (a schedule of 64 logical clients
// of register_or_get executed by the runner, then judged by the checker) with the clients dialling the
// RESP points (the default: client -> RESP point -> Toxiproxy -> redis-server) vs dialling the
// Toxiproxy client proxies directly, on one cluster, alternated over several rounds; medians.
// Run: npx tsx bench/resp-point.ts [opsPerRound=10000] [rounds=5]
import { Cluster as IORedisCluster } from 'ioredis';
import { check } from '../src/checker/index.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import type { ClientStep, Schedule } from '../src/plan/schedule.ts';
import { runSchedule } from '../src/runner/run.ts';
import { createReferenceSubject } from '../src/impl/reference.ts';
import { median } from './stats.ts';
import { PATTERNS } from '../src/patterns/index.ts';

const total = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 5);
const inFlight = 64;
const keys = 1_000;
console.log(`npx tsx bench/resp-point.ts ${total} ${rounds}`);

const cluster = await LocalCluster.start();
// The same cluster, bypassing the RESP points: seeds and natMap at the Toxiproxy client proxies.
const proxies = cluster.processes().map((p) => p.ports.client);
const bypass = new IORedisCluster(
  proxies.map((port) => ({ host: '127.0.0.1', port })),
  { natMap: Object.fromEntries(cluster.nodes.map((n, i) => [n.announced, { host: '127.0.0.1', port: proxies[i] }])) },
);
const through = cluster.connect();
try {
  const subjects = {
    bypass: await createReferenceSubject('idempotency', bypass, { namespace: 'bench' }),
    point: await createReferenceSubject('idempotency', through, { namespace: 'bench' }),
  };
  const input = (c: number, i: number) => ({
    op: 'register' as const,
    fingerprint: 'fp',
    owner: `c${c}a${i}`,
    leaseMs: 60_000,
  });
  const perClient = Math.ceil(total / inFlight);
  const clients: ClientStep[][] = Array.from({ length: inFlight }, (_, c) =>
    Array.from({ length: perClient }, (_, i) => ({
      type: 'op' as const,
      key: (c * perClient + i) % keys,
      input: input(c, i),
    })),
  );
  const schedule: Schedule = { pattern: 'idempotency', keys, clients, faults: [] };
  const rates: Record<keyof typeof subjects, number[]> = { bypass: [], point: [] };

  async function round(which: keyof typeof subjects, n: number): Promise<number> {
    const t0 = performance.now();
    const run = await runSchedule(schedule, {
      cluster,
      subjects: Array(inFlight).fill(subjects[which]),
      namespace: `${which}-${n}`,
      nodeTimeoutMs: 1_000,
      opTimeoutMs: 30_000,
    });
    const result = check(run.history, PATTERNS.idempotency);
    if (result.verdict !== 'ok') throw new Error(`benchmark history judged ${result.verdict}`);
    return (perClient * inFlight) / ((performance.now() - t0) / 1000);
  }

  await round('point', -1); // warm-up: scripts loaded, connections open on both paths
  await round('bypass', -1);
  for (let n = 0; n < rounds; n++) {
    // Alternate which goes first, so a drift in the machine's load favours neither.
    const order: (keyof typeof subjects)[] = n % 2 === 0 ? ['point', 'bypass'] : ['bypass', 'point'];
    for (const which of order) rates[which].push(await round(which, n));
    console.log(
      `round ${n + 1}: through the RESP point ${rates.point[n].toFixed(0)} ops/s, bypassing it ${rates.bypass[n].toFixed(0)} ops/s`,
    );
  }
  const ratio = median(rates.point) / median(rates.bypass);
  console.log(
    `median of ${rounds}: through the RESP point ${median(rates.point).toFixed(0)} ops/s, bypassing it ${median(rates.bypass).toFixed(0)} ops/s: ` +
      `ratio ${ratio.toFixed(3)} (cost ${((1 - ratio) * 100).toFixed(1)}%)`,
  );
} finally {
  bypass.disconnect();
  through.disconnect();
  await cluster.dispose();
}
