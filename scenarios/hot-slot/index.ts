import { keySlot } from '../../src/resp/key-slot.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import {
  masterIndexes,
  nodeInfo,
  withConnection,
  type Scenario,
  type StepContext,
  type Variant,
} from '../../src/scenario/index.ts';

const BIG_TENANT_KEYS = 10_000;
const SMALL_TENANTS = 5;
const SMALL_TENANT_KEYS = 200;
const BATCH = 1_000;

/** How a variant names the key of one request of one tenant. */
type Scheme = (credential: string, route: string, key: string) => string;

export interface HotSlotObservations {
  readonly scheme: string;
  /** Keys of the big tenant on each master, measured with DBSIZE. */
  readonly bigTenantPerMaster: Record<string, number>;
  /** All keys written (big + small tenants) on each master. */
  readonly allPerMaster: Record<string, number>;
  readonly bigTenantSlots: number;
  readonly hottestShare: number;
  /** used_memory growth of each master while the keys were written (redis_memory_used_bytes). */
  readonly memoryGrowth: Record<string, number>;
}

function variant(label: string, example: string, scheme: Scheme): Variant<HotSlotObservations> {
  return { label, source: example, run: (ctx) => trial(ctx, scheme, example) };
}

async function trial(ctx: StepContext, scheme: Scheme, example: string): Promise<HotSlotObservations> {
  const masters = await masterIndexes(ctx.cluster);
  const sizes = async () =>
    Object.fromEntries(
      await Promise.all(masters.map(async (m) => [`n${m}`, Number(await ctx.cluster.command(m, 'DBSIZE'))] as const)),
    );
  const memory = async () =>
    Object.fromEntries(
      await Promise.all(
        masters.map(async (m) => [`n${m}`, Number((await nodeInfo(ctx.cluster, m, 'memory')).used_memory)] as const),
      ),
    );
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.keys(a).map((n) => [n, a[n] - (b[n] ?? 0)]));
  const big = Array.from({ length: BIG_TENANT_KEYS }, (_, i) =>
    scheme(`${ctx.namespace}-cred_big`, `POST/v1/charges`, `req-${i}`),
  );
  const small = Array.from({ length: SMALL_TENANTS * SMALL_TENANT_KEYS }, (_, i) =>
    scheme(`${ctx.namespace}-cred_small${i % SMALL_TENANTS}`, 'POST/v1/charges', `req-${i}`),
  );
  ctx.say(
    `scheme ${example}: ${big.length} keys of one big tenant, then ${SMALL_TENANTS} small tenants x ${SMALL_TENANT_KEYS}`,
  );

  return withConnection(
    ctx.cluster,
    async (redis) => {
      const write = async (keys: string[]) => {
        for (let i = 0; i < keys.length; i += BATCH)
          await Promise.all(keys.slice(i, i + BATCH).map((k) => redis.set(k, '{"state":"pending"}', 'PX', 600_000)));
      };
      const [baseline, memoryBefore] = [await sizes(), await memory()];
      await write(big);
      const afterBig = await sizes();
      await write(small);
      const afterAll = await sizes();
      const memoryGrowth = minus(await memory(), memoryBefore);
      const bigTenantPerMaster = minus(afterBig, baseline);
      const allPerMaster = minus(afterAll, baseline);
      const bigTenantSlots = new Set(big.map((k) => keySlot(k))).size;
      const hottestShare = Math.max(...Object.values(bigTenantPerMaster)) / BIG_TENANT_KEYS;
      ctx.say(
        `big tenant per master: ${Object.entries(bigTenantPerMaster)
          .map(([n, c]) => `${n} ${c}`)
          .join(', ')} (${bigTenantSlots} slot${bigTenantSlots === 1 ? '' : 's'})`,
      );
      ctx.say(
        `all tenants per master: ${Object.entries(allPerMaster)
          .map(([n, c]) => `${n} ${c}`)
          .join(', ')}`,
      );
      ctx.say(
        `used_memory growth per master: ${Object.entries(memoryGrowth)
          .map(([n, b]) => `${n} ${(b / 1024 / 1024).toFixed(1)} MB`)
          .join(', ')}`,
      );
      for (let i = 0; i < big.length + small.length; i += BATCH)
        await Promise.all([...big, ...small].slice(i, i + BATCH).map((k) => redis.unlink(k)));
      return {
        scheme: example,
        bigTenantPerMaster,
        allPerMaster,
        bigTenantSlots,
        hottestShare: Number(hottestShare.toFixed(3)),
        memoryGrowth,
      };
    },
    { enableAutoPipelining: true, redisOptions: { commandTimeout: 15_000 } },
  );
}

export const hotSlot: Scenario<HotSlotObservations> = {
  name: 'hot-slot',
  title: 'tagging only the credential puts a whole tenant in one slot, on one master',
  row: 'hash tags in the keys of the idempotency store: tagging the credential alone sends every key of a large tenant to one slot',
  cluster: { masters: 3, replicasPerMaster: 0 },
  fault: `load skew: ${BIG_TENANT_KEYS.toLocaleString('en')} keys of one large tenant and ${SMALL_TENANTS} tenants of ${SMALL_TENANT_KEYS} keys on a 3-master cluster`,
  observe:
    'every key of the large tenant in one slot on one master (DBSIZE per master), memory growing on that master only',
  metric: "hottest master's share of the big tenant's keys (DBSIZE; even = 0.33)",
  broken: variant(
    'hash tag around the credential only',
    'idem:v1:{cred}:route:key',
    (credential, route, key) => `idem:v1:{${credential}}:${route}:${key}`,
  ),
  remediated: variant('hash tag around credential, route and key (scopedKey)', 'idem:v1:{cred:route:key}', scopedKey),
  judge(o) {
    const held = o.bigTenantSlots > 1 && o.hottestShare <= 0.5;
    return {
      held,
      why: `the big tenant spans ${o.bigTenantSlots} slot(s); the hottest master holds ${(o.hottestShare * 100).toFixed(1)}% of its keys`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.bigTenantSlots !== 1) missing.push(`the big tenant spans ${o.bigTenantSlots} slots, not one`);
    if (o.hottestShare !== 1)
      missing.push(`one master holds only ${(o.hottestShare * 100).toFixed(1)}% of the big tenant`);
    return missing;
  },
  metricValue: (o) => o.hottestShare,
  notes: [
    'A hot slot cannot be fixed by adding masters or resharding: one slot always lives on one node. Only the key layout spreads it.',
  ],
};
