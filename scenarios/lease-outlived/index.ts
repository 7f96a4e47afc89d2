import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { describeOutcome, type ExecuteOutcome, type Handler } from '../../src/patterns/idempotency/execute.ts';
import type { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';
import {
  metricSum,
  openStore,
  sleep,
  withConnection,
  type Scenario,
  type StepContext,
  type Variant,
} from '../../src/scenario/index.ts';
import { executeWithoutHeartbeat } from './execute-no-heartbeat.ts';
import { idempotencyStores } from '../../src/patterns/idempotency/stores.ts';

/** Renewed every lease/3 by the heartbeat: a renew may be ~330 ms late before the lease is lost. */
const LEASE_MS = 500;
const HANDLER_MS = 1_500;
/** The retry arrives once the un-renewed lease is certainly gone. */
const RETRY_AFTER_MS = 900;
const TTL_MS = 60_000;

type Executor = (
  store: IdempotencyStore,
  key: string,
  request: unknown,
  handler: Handler,
  options: { leaseMs: number; ttlMs: number },
) => Promise<ExecuteOutcome>;

export interface LeaseOutlivedObservations {
  readonly leaseMs: number;
  readonly handlerMs: number;
  /** How many times the handler ran for one request. */
  readonly executions: number;
  readonly outcomes: Record<string, string>;
  readonly leaseExpiredWhilePending: number;
  readonly responseStored: boolean;
}

function variant(label: string, source: string, execute: Executor): Variant<LeaseOutlivedObservations> {
  return { label, source, run: (ctx) => trial(ctx, execute) };
}

async function trial(ctx: StepContext, execute: Executor): Promise<LeaseOutlivedObservations> {
  return withConnection(ctx.cluster, async (redis) => {
    const store = await openStore(idempotencyStores, redis, {}, { leaseMs: LEASE_MS, ttlMs: TTL_MS });
    const key = scopedKey(ctx.namespace, 'POST/v1/exports', 'export-1');
    const request = { report: 'q3', format: 'csv' };
    let executions = 0;
    const handler: Handler = async ({ owner }) => {
      executions++;
      ctx.say(
        `handler #${executions} starts for ${owner.split('/')[1]} (takes ${HANDLER_MS} ms, lease is ${LEASE_MS} ms)`,
      );
      await sleep(HANDLER_MS);
      return { status: 200, body: `{"export":"done by execution ${executions}"}` };
    };
    const outcomes: Record<string, string> = {};
    const run = async (name: string, delayMs: number) => {
      await sleep(delayMs);
      const outcome = await execute(store, key, request, handler, { leaseMs: LEASE_MS, ttlMs: TTL_MS });
      outcomes[name] = describeOutcome(outcome);
      ctx.say(`${name} -> ${outcomes[name]}`);
    };
    await Promise.all([run('first request', 0), run(`retry after ${RETRY_AFTER_MS} ms`, RETRY_AFTER_MS)]);
    const stored = await redis.hget(key, 'state');
    ctx.say(
      stored === 'completed'
        ? 'a response is stored: later retries replay it'
        : `no response is stored (key ${stored ?? 'absent'}): the next retry would run the handler yet again`,
    );
    const leaseExpiredWhilePending = metricSum(
      await store.metricsText(),
      'idempotency_lease_expired_while_pending_total',
    );
    ctx.say(`handler ran ${executions} time(s); handler duration ${HANDLER_MS} ms against a ${LEASE_MS} ms lease`);
    await redis.del(key);
    return {
      leaseMs: LEASE_MS,
      handlerMs: HANDLER_MS,
      executions,
      outcomes,
      leaseExpiredWhilePending,
      responseStored: stored === 'completed',
    };
  });
}

export const leaseOutlived: Scenario<LeaseOutlivedObservations> = {
  name: 'lease-outlived',
  title: 'a handler longer than its lease, with no heartbeat, lets a duplicate execute',
  row: 'failure table, idempotency store: a handler slower than its lease loses the key while still working, and a retry runs the same operation again',
  cluster: { masters: 3, replicasPerMaster: 0 },
  fault: `lease expiry: a ${HANDLER_MS} ms handler under a ${LEASE_MS} ms lease; the same request is retried ${RETRY_AFTER_MS} ms later`,
  observe: 'the retry registers fresh while the first handler still runs: two executions of one request',
  metric: 'idempotency_lease_expired_while_pending_total',
  broken: variant(
    'execute() without the renew heartbeat',
    'scenarios/lease-outlived/execute-no-heartbeat.ts',
    executeWithoutHeartbeat,
  ),
  remediated: variant(
    'the reference execute() (renews every lease/3)',
    'src/patterns/idempotency/execute.ts',
    (store, key, request, handler, options) => store.execute(key, request, handler, options),
  ),
  judge(o) {
    return {
      held: o.executions === 1 && o.responseStored,
      why: `the handler ran ${o.executions} time(s) for one request; ${o.responseStored ? 'its response is stored' : 'no response is stored'}`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.executions !== 2) missing.push(`the handler ran ${o.executions} time(s), not twice`);
    if (o.leaseExpiredWhilePending < 1) missing.push('idempotency_lease_expired_while_pending_total did not move');
    return missing;
  },
  metricValue: (o) => o.leaseExpiredWhilePending,
  notes: [
    "The store itself kept its contract in both runs (a lease that ran out may be taken over); the duplicate is the client's, which is why the checker has nothing to say here and the handler count does.",
    'handler_duration_seconds p999 against the configured lease is the leading signal; the counter only fires once a lease is lost.',
  ],
};
