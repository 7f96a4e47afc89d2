/**
 * register_or_get latency through the reference client (EVALSHA, ioredis Cluster through the
 * Toxiproxy client proxies of a LocalCluster): one call at a time, then 64 in flight. Every call
 * registers a fresh key (the common path of a first request). Per-call latency is measured from
 * the call to its reply; percentiles are nearest-rank, medians over rounds. Prints figures only.
 *
 *   npx tsx bench/register.ts [--rounds 3] [--calls 20000] [--inflight 64]
 */
import { parseArgs } from 'node:util';
import { LocalCluster } from '../src/cluster/local.ts';
import { IdempotencyStore } from '../src/patterns/idempotency/client.ts';
import { scopedKey } from '../src/patterns/idempotency/keys.ts';
import { median, quantile } from './stats.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '64' },
  },
});
const positive = (name: string, text: string | undefined) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return n;
};
const rounds = positive('rounds', values.rounds);
const calls = positive('calls', values.calls);
const inflight = positive('inflight', values.inflight);
console.log(`npx tsx bench/register.ts --rounds ${rounds} --calls ${calls} --inflight ${inflight}`);
console.log(
  `${calls} register_or_get calls on fresh keys per round, sequential then ${inflight} in flight, ${rounds} rounds; medians of the rounds' figures`,
);

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
}

/** `count` registrations by `workers` concurrent loops; latencies in microseconds. */
async function run(store: IdempotencyStore, workers: number, prefix: string, count = calls): Promise<Figures> {
  const latencies = new Float64Array(count);
  let next = 0;
  const owner = store.newOwner();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const r = await store.registerOrGet(scopedKey('bench', prefix, String(i)), 'fp', owner);
        latencies[i] = (performance.now() - t0) * 1000;
        if (r.kind !== 'fresh') throw new Error(`key ${i} was not fresh`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sample = Array.from(latencies);
  return { p50: quantile(sample, 0.5), p99: quantile(sample, 0.99), perSecond: count / seconds };
}

await using cluster = await LocalCluster.start();
const redis = cluster.connect();
try {
  const store = await IdempotencyStore.open(redis, { leaseMs: 60_000 });
  const modes = { sequential: 1, [`${inflight} in flight`]: inflight };
  for (const [name, workers] of Object.entries(modes)) await run(store, workers, `warm-${name}`, 1000);
  const results: Record<string, Figures[]> = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.entries(modes) : Object.entries(modes).reverse();
    for (const [name, workers] of order) {
      const f = await run(store, workers, `r${round}-${workers}`);
      results[name].push(f);
      console.log(
        `round ${round + 1} ${name.padEnd(14)} p50 ${f.p50.toFixed(0)} us, p99 ${f.p99.toFixed(0)} us, ${Math.round(f.perSecond)} calls/s`,
      );
    }
  }
  console.log(
    `\n${String(cluster)}, Redis ${await cluster.redisVersion()}; ${calls} fresh registrations per mode per round, ${rounds} rounds (medians):`,
  );
  for (const [name, figures] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(14)}: p50 ${median(figures.map((f) => f.p50)).toFixed(0)} us, p99 ${median(figures.map((f) => f.p99)).toFixed(0)} us, ` +
        `${Math.round(median(figures.map((f) => f.perSecond)))} calls/s`,
    );
  }
  console.log(`  NOSCRIPT fallbacks during the run: ${store.noscriptFallbacks}`);
} finally {
  await redis.quit();
}
