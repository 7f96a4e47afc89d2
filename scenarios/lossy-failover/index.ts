import type { Cluster as IORedisCluster } from 'ioredis';
import { masterForSlot } from '../../src/scripts/cluster-nodes.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { replyText } from '../../src/model/reply.ts';
import {
  OpLog,
  checkLine,
  nodeInfo,
  openStore,
  shardOf,
  sleep,
  summariseCheck,
  withConnection,
  type CheckSummary,
  type Scenario,
  type StepContext,
  type Variant,
} from '../../src/scenario/index.ts';
import { idempotencyStores } from '../../src/patterns/idempotency/stores.ts';
import { idempotency } from '../../src/patterns/idempotency/index.ts';

/** Replication held back this long: far longer than a TAKEOVER takes, so nothing sneaks through before it. */
const REPLICATION_DELAY_MS = 3_000;
const WAIT_TIMEOUT_MS = 10_000;
const TTL_MS = 60_000;
const BODY = '{"charge":"ch_9","amount":990}';

/** What a variant does between complete's reply and acknowledging the caller (nothing, or WAIT). */
type BeforeAck = (redis: IORedisCluster, key: string) => Promise<{ wait?: number; waitMs?: number }>;

export interface LossyFailoverObservations {
  readonly completeReply: string;
  readonly waitReplicas: number | null;
  readonly waitMs: number | null;
  /** Replication bytes up to and including the completion that the replica had not acknowledged when the failover fired. */
  readonly replicaLagBytes: number;
  readonly failoverMs: number;
  readonly retryRegistration: string;
  readonly secondWinner: boolean;
  readonly check: CheckSummary;
}

function variant(label: string, source: string, beforeAck: BeforeAck): Variant<LossyFailoverObservations> {
  return { label, source, run: (ctx) => trial(ctx, beforeAck) };
}

/** The replica's acknowledged offset, as its master reports it. */
function replicaAcked(info: Record<string, string>): number {
  return Number(/offset=(\d+)/.exec(info.slave0 ?? '')?.[1] ?? 0);
}

async function trial(ctx: StepContext, beforeAck: BeforeAck): Promise<LossyFailoverObservations> {
  const { cluster } = ctx;
  return withConnection(cluster, async (redis) => {
    const store = await openStore(idempotencyStores, redis, {}, { ttlMs: TTL_MS });
    const key = scopedKey(ctx.namespace, 'POST/v1/charges', 'order-9');
    const { master, replicas } = await shardOf(cluster, key);
    const replica = replicas[0];
    const log = new OpLog(idempotency);
    const text = (reply: unknown) =>
      Array.isArray(reply) ? reply.map((r) => replyText(r)).join(',') : String(replyText(reply) ?? reply);

    const toxicAt = log.now();
    await cluster.toxic(master, 'internal', {
      type: 'latency',
      stream: 'downstream',
      attributes: { latency: REPLICATION_DELAY_MS, jitter: 0 },
    });
    ctx.say(
      `fault: replication from master n${master} to replica n${replica} delayed ${REPLICATION_DELAY_MS} ms (latency toxic on n${master}'s internal link); clients still reach n${master} directly`,
    );
    await sleep(100);

    const registered = await log.op(
      0,
      key,
      { op: 'register', fingerprint: 'fp', owner: 'owner-A', leaseMs: TTL_MS },
      () => store.calls.registerOrGet(key, 'fp', 'owner-A', TTL_MS),
    );
    ctx.say(`A register -> ${text(registered)}`);
    let confirmed: { wait?: number; waitMs?: number } = {};
    let writeOffset = 0;
    // The caller's view: the operation ends when it is acknowledged, after whatever the variant does first.
    const completed = await log.op(
      0,
      key,
      { op: 'complete', owner: 'owner-A', status: '201', body: BODY, ttlMs: TTL_MS },
      async () => {
        const reply = await store.calls.complete(key, 'owner-A', '201', BODY, TTL_MS);
        writeOffset = Number((await nodeInfo(cluster, master, 'replication')).master_repl_offset);
        confirmed = await beforeAck(redis, key);
        return reply;
      },
    );
    const { wait, waitMs } = confirmed;
    ctx.say(
      `A complete -> ${text(completed)}, acknowledged to the caller${wait === undefined ? '' : ` after WAIT 1 answered ${wait} in ${waitMs} ms`}`,
    );

    const replicaLagBytes = Math.max(0, writeOffset - replicaAcked(await nodeInfo(cluster, master, 'replication')));
    const failoverAt = log.now();
    await cluster.failover(replica, 'takeover');
    const failoverMs = Math.round(log.now() - failoverAt);
    log.fault(
      'failover-takeover',
      `n${replica} takes over n${master}'s shard`,
      failoverAt,
      true,
      `CLUSTER FAILOVER TAKEOVER with ${replicaLagBytes} bytes not acknowledged by the replica`,
    );
    ctx.say(
      `fault: CLUSTER FAILOVER TAKEOVER on n${replica} right after the acknowledgement (${replicaLagBytes} bytes of the write not yet acknowledged by the replica); promoted in ${failoverMs} ms`,
    );

    const retry = await log.op(1, key, { op: 'register', fingerprint: 'fp', owner: 'owner-B', leaseMs: TTL_MS }, () =>
      store.calls.registerOrGet(key, 'fp', 'owner-B', TTL_MS),
    );
    const secondWinner = Array.isArray(retry) && retry[0] === 'fresh';
    ctx.say(
      `B register (same request, on the promoted master) -> ${text(retry)}${secondWinner ? ': a second winner' : ''}`,
    );
    log.fault('toxic', `n${master} internal link`, toxicAt, false, `replication latency ${REPLICATION_DELAY_MS} ms`);
    const check = summariseCheck(log.check());
    ctx.say(
      checkLine(check) + (check.replicationLosses.length > 0 ? ` — ${check.replicationLosses[0].split(':')[0]}` : ''),
    );
    await redis.del(key);
    return {
      completeReply: text(completed),
      waitReplicas: wait ?? null,
      waitMs: waitMs ?? null,
      replicaLagBytes,
      failoverMs,
      retryRegistration: text(retry).split(',')[0],
      secondWinner,
      check,
    };
  });
}

/** WAIT must go out on the connection that carried the write: ioredis would send a keyless WAIT to a random node. */
const waitForOneReplica: BeforeAck = async (redis, key) => {
  const node = masterForSlot(redis, keySlot(key));
  if (!node) throw new Error(`no connection to the master of ${key}`);
  const started = performance.now();
  const wait = Number(await node.call('WAIT', '1', String(WAIT_TIMEOUT_MS)));
  return { wait, waitMs: Math.round(performance.now() - started) };
};

export const lossyFailover: Scenario<LossyFailoverObservations> = {
  name: 'lossy-failover',
  title: 'a write acknowledged just before a TAKEOVER failover is lost and a second winner appears',
  row: 'DESIGN "The model and time" and REDIS-FACTS: asynchronous replication loses acknowledged writes on FORCE/TAKEOVER; the checker must call it replication loss, not a bug',
  cluster: { masters: 3, replicasPerMaster: 1 },
  fault: `latency toxic (${REPLICATION_DELAY_MS} ms) on the master's internal link, register + complete acknowledged, then CLUSTER FAILOVER TAKEOVER on its replica; the same request is retried`,
  observe:
    'the retry registers fresh on the promoted replica (a second winner), and check() reports replication-loss with no violation',
  metric: 'unreplicated bytes at failover (write offset − replica ack offset)',
  broken: variant(
    "complete acknowledged on the master's word alone",
    'IdempotencyStore.complete, acknowledged at once',
    async () => ({}),
  ),
  remediated: variant(
    'complete, then WAIT 1 on the same connection before acknowledging',
    'scenarios/lossy-failover/index.ts (waitForOneReplica)',
    waitForOneReplica,
  ),
  judge(o) {
    const held = !o.secondWinner && o.retryRegistration === 'hit' && o.check.verdict === 'ok';
    return {
      held,
      why: `retry saw ${o.retryRegistration}${o.secondWinner ? ' (second winner)' : ''}, checker ${o.check.verdict}, replica lag at failover ${o.replicaLagBytes} bytes${o.waitReplicas === null ? '' : `, WAIT 1 -> ${o.waitReplicas} after ${o.waitMs} ms`}`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (!o.secondWinner) missing.push('the retry did not register fresh');
    if (o.check.verdict !== 'replication-loss')
      missing.push(`the checker said ${o.check.verdict}, not replication-loss`);
    if (o.check.invariants.length > 0)
      missing.push(`the checker reported violations (${o.check.invariants.join(', ')}) instead of a loss`);
    if (o.replicaLagBytes <= 0) missing.push('the replica had acknowledged everything before the failover');
    return missing;
  },
  metricValue: (o) => o.replicaLagBytes,
  notes: [
    'WAIT 1 made the acknowledgement wait for the replica (it cost the whole replication delay), so this TAKEOVER kept the write.',
    'WAIT is not consensus: it counts replicas that acknowledged writes made on this connection only; on timeout the write stays applied on the master anyway; with two replicas, the one that did not acknowledge may be the one promoted; a write replicated to one replica is still lost if that replica dies with the master.',
    'Certification therefore reports such losses apart (replication-loss) and fails only on safety violations; the default CLUSTER FAILOVER (with handshake) loses nothing.',
  ],
};
