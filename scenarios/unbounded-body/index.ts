import type { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';
import { BodyTooLargeError } from '../../src/patterns/idempotency/body-cap.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import {
  histogramBucketQuantile,
  keysOn,
  masterIndexes,
  metricSum,
  nodeInfo,
  openStore,
  withConnection,
  type Scenario,
  type StepContext,
  type Variant,
} from '../../src/scenario/index.ts';
import { idempotencyStores } from '../../src/patterns/idempotency/stores.ts';

const MAXMEMORY = '32mb';
const MAXMEMORY_BYTES = 32 * 1024 * 1024;
const BODY_BYTES = 4 * 1024 * 1024;
/** Per master: 12 x 4 MB is half as much again as the node may hold. */
const BIG_PER_MASTER = 12;
const PENDING_PER_MASTER = 3;
const LEASE_MS = 120_000;
const TTL_MS = 600_000;

/** How a variant hands a response to the store: as it is, or capped with a pointer for large payloads. */
type Storer = (store: IdempotencyStore, key: string, owner: string, body: string) => Promise<'stored' | 'pointer'>;

export interface UnboundedBodyObservations {
  readonly maxmemoryBytes: number;
  readonly policy: string;
  readonly bodiesOffered: number;
  readonly storedAsPointer: number;
  /** Highest used_memory sampled on each master while the bodies were stored. */
  readonly peakUsedMemory: Record<string, number>;
  readonly evictedKeys: number;
  /** Records (pending or completed) a retry found absent: each a second `fresh`. */
  readonly secondFresh: number;
  readonly secondFreshWasPending: number;
  readonly secondFreshWasCompleted: number;
  readonly example: string | null;
  readonly bodyBytesP99: number | null;
  readonly memoryGauge: Record<string, number>;
}

function variant(label: string, source: string, storer: Storer): Variant<UnboundedBodyObservations> {
  return { label, source, run: (ctx) => trial(ctx, storer) };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function trial(ctx: StepContext, storer: Storer): Promise<UnboundedBodyObservations> {
  const { cluster } = ctx;
  const masters = await masterIndexes(cluster);
  const evictedBefore = await evicted(ctx, masters);
  const policy = ((await cluster.command(masters[0], 'CONFIG', 'GET', 'maxmemory-policy')) as string[])[1];
  return withConnection(cluster, async (redis) => {
    const store = await openStore(idempotencyStores, redis, {}, { leaseMs: LEASE_MS, ttlMs: TTL_MS });
    const topology = await cluster.topology();
    const make = (kind: string) => (i: number) => scopedKey(ctx.namespace, 'POST/v1/reports', `${kind}-${i}`);
    const pending = masters.flatMap((m) => keysOn(topology, m, PENDING_PER_MASTER, make('pending')));
    const big = masters.flatMap((m) => keysOn(topology, m, BIG_PER_MASTER, make('report')));
    for (const key of pending) await store.registerOrGet(key, 'fp', store.newOwner());
    ctx.say(
      `${pending.length} requests in flight (pending), then ${big.length} completed requests with ${mb(BODY_BYTES)} responses, ${BIG_PER_MASTER} per master (maxmemory ${MAXMEMORY}, ${policy})`,
    );

    const body = 'x'.repeat(BODY_BYTES);
    const peak: Record<string, number> = {};
    let storedAsPointer = 0;
    for (const key of big) {
      const owner = store.newOwner();
      await store.registerOrGet(key, 'fp', owner);
      if ((await storer(store, key, owner, body)) === 'pointer') storedAsPointer++;
      for (const m of masters) {
        const used = Number((await nodeInfo(cluster, m, 'memory')).used_memory);
        peak[`n${m}`] = Math.max(peak[`n${m}`] ?? 0, used);
      }
    }
    ctx.say(
      `peak used_memory per master: ${Object.entries(peak)
        .map(([n, b]) => `${n} ${mb(b)}`)
        .join(', ')} of ${mb(MAXMEMORY_BYTES)}`,
    );
    const evictedKeys = (await evicted(ctx, masters)) - evictedBefore;

    let secondFreshWasPending = 0,
      secondFreshWasCompleted = 0;
    let example: string | null = null;
    for (const [kind, keys] of [
      ['pending', pending],
      ['completed', big],
    ] as const) {
      for (const key of keys) {
        const again = await store.registerOrGet(key, 'fp', store.newOwner());
        if (again.kind !== 'fresh') continue;
        if (kind === 'pending') secondFreshWasPending++;
        else secondFreshWasCompleted++;
        example ??= `${key} was ${kind}, and a retry of the same request registered fresh: a second winner`;
      }
    }
    const secondFresh = secondFreshWasPending + secondFreshWasCompleted;
    ctx.say(
      `evicted_keys +${evictedKeys}; retries of the same requests: ${secondFresh} fresh again (${secondFreshWasPending} were pending, ${secondFreshWasCompleted} completed)`,
    );
    if (example) ctx.say(`e.g. ${example}`);
    await store.refreshMemory();
    const text = await store.metricsText();
    const memoryGauge = Object.fromEntries(
      masters.map((m) => [`n${m}`, metricSum(text, 'redis_memory_used_bytes', { node: cluster.nodes[m].client })]),
    );
    const bodyBytesP99 = histogramBucketQuantile(text, 'idempotency_body_bytes', 0.99);
    ctx.say(
      `idempotency_body_bytes p99 bucket <= ${bodyBytesP99} bytes; ${storedAsPointer} responses stored as a pointer`,
    );
    for (const key of [...pending, ...big]) await redis.unlink(key);
    return {
      maxmemoryBytes: MAXMEMORY_BYTES,
      policy,
      bodiesOffered: big.length,
      storedAsPointer,
      peakUsedMemory: peak,
      evictedKeys,
      secondFresh,
      secondFreshWasPending,
      secondFreshWasCompleted,
      example,
      bodyBytesP99,
      memoryGauge,
    };
  });
}

async function evicted(ctx: StepContext, masters: readonly number[]): Promise<number> {
  let total = 0;
  for (const m of masters) total += Number((await nodeInfo(ctx.cluster, m, 'stats')).evicted_keys);
  return total;
}

/** The whole body goes to Redis, however large (the slip: the store's cap bypassed). */
const uncapped: Storer = async (store, key, owner, body) => {
  store.metrics.bodyBytes.observe(Buffer.byteLength(body));
  await store.calls.runner.call('complete', key, [owner, 201, body, store.ttlMs]);
  return 'stored';
};

/** The reference store refuses bodies over 64 KiB; the large payload goes elsewhere and a pointer is stored. */
const capped: Storer = async (store, key, owner, body) => {
  try {
    await store.complete(key, owner, { status: 201, body });
    return 'stored';
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    await store.complete(key, owner, {
      status: 201,
      body: JSON.stringify({ pointer: `blob-store://reports/${encodeURIComponent(key)}`, bytes: error.bytes }),
    });
    return 'pointer';
  }
};

const worstRatio = (o: UnboundedBodyObservations) => Math.max(...Object.values(o.peakUsedMemory)) / o.maxmemoryBytes;

export const unboundedBody: Scenario<UnboundedBodyObservations> = {
  name: 'unbounded-body',
  title: '4 MB responses stored without a cap evict idempotency records on a small-maxmemory cluster',
  row: 'failure table, idempotency store: uncapped response bodies, megabytes per key, fill Redis memory',
  cluster: { masters: 3, replicasPerMaster: 0, maxmemory: MAXMEMORY, maxmemoryPolicy: 'allkeys-lru' },
  fault: `memory pressure: maxmemory ${MAXMEMORY} per master with allkeys-lru; ${3 * PENDING_PER_MASTER} pending requests, then ${3 * BIG_PER_MASTER} requests complete with ${BODY_BYTES / 1024 / 1024} MB responses; every request is then retried`,
  observe:
    'used_memory reaches maxmemory, evicted_keys grows, and retries of pending and completed requests register fresh again (one-winner broken, silently)',
  metric: 'redis_memory_used_bytes / maxmemory (peak, worst master)',
  broken: variant(
    'complete called with the whole body (no cap)',
    'scenarios/unbounded-body/index.ts (uncapped)',
    uncapped,
  ),
  remediated: variant(
    'the reference 64 KiB cap, a pointer stored for larger payloads',
    'src/patterns/idempotency/body-cap.ts via IdempotencyStore.complete',
    capped,
  ),
  judge(o) {
    const held = o.secondFresh === 0 && o.evictedKeys === 0;
    return {
      held,
      why: `${o.evictedKeys} keys evicted, ${o.secondFresh} retries registered fresh again, peak memory ${(worstRatio(o) * 100).toFixed(0)}% of maxmemory`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.evictedKeys === 0) missing.push('nothing was evicted');
    if (o.secondFresh === 0) missing.push('no retry registered fresh');
    if (worstRatio(o) < 0.8) missing.push(`memory peaked at ${(worstRatio(o) * 100).toFixed(0)}% of maxmemory only`);
    return missing;
  },
  metricValue: (o) => Number(worstRatio(o).toFixed(3)),
  notes: [
    'allkeys-lru is the policy a cache-minded cluster runs, and the one where the loss is silent: Redis keeps answering while it drops records. With noeviction the same writes fail loudly with OOM; volatile-lru behaves like allkeys-lru here, because every idempotency record carries a lease or TTL.',
    'idempotency_body_bytes counts bodies offered, rejected ones included: its p99 above 64 KB alerts in both runs (handlers produce large responses); only the cap keeps them out of Redis.',
  ],
};
