/**
 * Seed 004's measurement, side by side on one LocalCluster: a fixed-window limiter decided from the
 * client (GET, then INCR, then EXPIRE on the first hit: three round trips for a fresh key) against the
 * EVALSHA limiter (one round trip, both script variants). One fresh key per decision, so EXPIRE always
 * fires (the naive path's worst case). Contenders alternate within each round, order flipped every
 * round; medians over rounds. Two client paths: through the Toxiproxy client proxies (what the
 * harness uses; the proxy adds per-trip latency, like a network) and straight to the redis-servers
 * (the seed's loopback setting). Prints figures; asserts nothing.
 *
 *   npx tsx bench/limiter.ts [--rounds 3] [--decisions 20000] [--path both|proxied|direct]
 */
import { parseArgs } from 'node:util';
import { Cluster as IORedisCluster } from 'ioredis';
import { LocalCluster } from '../src/cluster/local.ts';
import { LimiterClient } from '../src/patterns/ratelimit/client.ts';
import { parseInfo } from '../src/resp/info.ts';
import { median } from './stats.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    decisions: { type: 'string', default: '20000' },
    path: { type: 'string', default: 'both' },
  },
});
const rounds = Number(values.rounds);
const decisions = Number(values.decisions);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new RangeError(`--rounds must be a positive integer, got ${values.rounds}`);
if (!Number.isInteger(decisions) || decisions < 1)
  throw new RangeError(`--decisions must be a positive integer, got ${values.decisions}`);
if (!['both', 'proxied', 'direct'].includes(values.path!))
  throw new RangeError(`--path must be both, proxied or direct, got ${values.path}`);
const LIMIT = 5;
const WINDOW_S = 60;
console.log(`npx tsx bench/limiter.ts --rounds ${rounds} --decisions ${decisions} --path ${values.path}`);
console.log(
  `${decisions} decisions per limiter on fresh keys (limit ${LIMIT}, window ${WINDOW_S} s), naive and EVALSHA alternated over ${rounds} rounds; medians`,
);

type Decide = (key: string) => Promise<{ allowed: boolean; trips: number }>;
interface Figures {
  roundTrips: number;
  serverCommands: number;
  seconds: number;
  allowed: number;
}

/** The client-side read-decide-write the atomic script replaces (racy, and three trips for a fresh key). */
function naive(redis: IORedisCluster): Decide {
  return async (key) => {
    const current = await redis.get(key);
    if (current !== null && Number(current) >= LIMIT) return { allowed: false, trips: 1 };
    if ((await redis.incr(key)) !== 1) return { allowed: true, trips: 2 };
    await redis.expire(key, WINDOW_S);
    return { allowed: true, trips: 3 };
  };
}

function script(client: LimiterClient): Decide {
  return async (key) => ({ allowed: await client.hit(key, LIMIT, WINDOW_S), trips: 1 });
}

/** A cluster client that bypasses every proxy: seeds and natMap point at the redis-servers themselves. */
function directClient(cluster: LocalCluster): IORedisCluster {
  const address = (hostPort: string) => ({
    host: hostPort.slice(0, hostPort.lastIndexOf(':')),
    port: Number(hostPort.slice(hostPort.lastIndexOf(':') + 1)),
  });
  return new IORedisCluster(
    cluster.nodes.map((n) => address(n.direct)),
    { natMap: Object.fromEntries(cluster.nodes.map((n) => [n.announced, address(n.direct)])) },
  );
}

/** Commands Redis executed on the masters since RESETSTAT, script-internal calls included. */
async function serverCommands(cluster: LocalCluster, masters: number[]): Promise<number> {
  let total = 0;
  for (const node of masters) {
    for (const [name, value] of Object.entries(
      parseInfo(String(await cluster.command(node, 'INFO', 'commandstats'))),
    )) {
      if (/^cmdstat_(get|incr|expire|evalsha)$/.test(name)) total += Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
    }
  }
  return total;
}

async function measure(cluster: LocalCluster, masters: number[], decide: Decide, prefix: string): Promise<Figures> {
  await Promise.all(masters.map((n) => cluster.command(n, 'CONFIG', 'RESETSTAT')));
  let roundTrips = 0;
  let allowed = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < decisions; i++) {
    const r = await decide(`rl:{${prefix}:${i}}`);
    roundTrips += r.trips;
    if (r.allowed) allowed++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { roundTrips, serverCommands: await serverCommands(cluster, masters), seconds, allowed };
}

async function benchPath(cluster: LocalCluster, masters: number[], path: 'proxied' | 'direct'): Promise<void> {
  const redis = path === 'proxied' ? cluster.connect() : directClient(cluster);
  try {
    const contenders: Record<string, Decide> = {
      'naive GET+INCR+EXPIRE': naive(redis),
      'EVALSHA get-first': script(await LimiterClient.open(redis, { variant: 'get-first' })),
      'EVALSHA incr-first': script(await LimiterClient.open(redis, { variant: 'incr-first' })),
    };
    const names = Object.keys(contenders);
    // Warm-up: a connection to every master, scripts cached, JIT settled.
    for (const name of names) for (let i = 0; i < 500; i++) await contenders[name](`rl:{warm:${path}:${name}:${i}}`);

    const results: Record<string, Figures[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const f = await measure(cluster, masters, contenders[name], `${path}:${round}:${names.indexOf(name)}`);
        results[name].push(f);
        console.log(
          `  ${path} round ${round + 1} ${name.padEnd(22)} ${((f.seconds * 1e6) / decisions).toFixed(1)} us/decision`,
        );
      }
    }
    console.log(`\n${path}: ${decisions} decisions per contender per round, ${rounds} rounds, medians over rounds`);
    const usPer = (name: string) => median(results[name].map((f) => (f.seconds * 1e6) / decisions));
    for (const name of names) {
      const f = results[name][0];
      console.log(
        `  ${name.padEnd(22)}: ${(f.roundTrips / decisions).toFixed(2)} round trips/decision, ${(f.serverCommands / decisions).toFixed(2)} server commands/decision, ` +
          `${usPer(name).toFixed(1)} us/decision (${Math.round(1e6 / usPer(name))}/s), allowed ${f.allowed}/${decisions}`,
      );
    }
    const [n, g, i] = names.map((name) => results[name]);
    console.log(`  round-trip ratio naive/EVALSHA: ${(n[0].roundTrips / g[0].roundTrips).toFixed(2)}x`);
    console.log(
      `  latency ratio naive/EVALSHA get-first : ${median(n.map((f, r) => f.seconds / g[r].seconds)).toFixed(2)}x (median of per-round ratios)`,
    );
    console.log(
      `  latency ratio naive/EVALSHA incr-first: ${median(n.map((f, r) => f.seconds / i[r].seconds)).toFixed(2)}x\n`,
    );
  } finally {
    await redis.quit();
  }
}

await using cluster = await LocalCluster.start();
const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master').map((n) => n.node.index);
console.log(
  `${String(cluster)}, Redis ${await cluster.redisVersion()}, ioredis Cluster client, limit ${LIMIT} per ${WINDOW_S} s, one fresh key per decision\n`,
);
for (const path of values.path === 'both' ? (['direct', 'proxied'] as const) : [values.path as 'proxied' | 'direct'])
  await benchPath(cluster, masters, path);
