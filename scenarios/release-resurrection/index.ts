import { fileURLToPath } from 'node:url';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { replyText } from '../../src/model/reply.ts';
import {
  OpLog,
  checkLine,
  metricSum,
  openStore,
  summariseCheck,
  withConnection,
  type CheckSummary,
  type Scenario,
  type ScriptOverrides,
  type StepContext,
  type Variant,
} from '../../src/scenario/index.ts';
import { idempotencyStores } from '../../src/patterns/idempotency/stores.ts';
import { idempotency } from '../../src/patterns/idempotency/index.ts';

const LEASE_MS = 10_000;
const TTL_MS = 60_000;
const BODY = '{"charge":"ch_1","amount":4200}';

export interface ReleaseResurrectionObservations {
  readonly releaseReply: string;
  readonly retryRegistration: string;
  /** How many times the operation (the handler that charges the card) ran for one request. */
  readonly executions: number;
  readonly responseSeenByRetry: string | null;
  readonly staleCompletionRejected: number;
  readonly check: CheckSummary;
}

function variant(label: string, overrides: ScriptOverrides, source: string): Variant<ReleaseResurrectionObservations> {
  return { label, source, run: (ctx) => trial(ctx, overrides) };
}

async function trial(ctx: StepContext, overrides: ScriptOverrides): Promise<ReleaseResurrectionObservations> {
  return withConnection(ctx.cluster, async (redis) => {
    const store = await openStore(idempotencyStores, redis, overrides, { ttlMs: TTL_MS, leaseMs: LEASE_MS });
    const log = new OpLog(idempotency);
    const key = scopedKey(ctx.namespace, 'POST/v1/charges', 'order-7');
    let executions = 0;
    const text = (reply: unknown) =>
      Array.isArray(reply) ? reply.map((r) => replyText(r)).join(',') : String(replyText(reply) ?? reply);
    const register = (client: number, owner: string) =>
      log.op(client, key, { op: 'register', fingerprint: 'fp', owner, leaseMs: LEASE_MS }, () =>
        store.calls.registerOrGet(key, 'fp', owner, LEASE_MS),
      );
    const attempt = async (client: number, owner: string): Promise<unknown> => {
      const registration = await register(client, owner);
      if (!Array.isArray(registration) || registration[0] !== 'fresh') return registration;
      executions++;
      ctx.say(`${owner} runs the operation (execution #${executions})`);
      await log.op(client, key, { op: 'complete', owner, status: '201', body: BODY, ttlMs: TTL_MS }, () =>
        store.calls.complete(key, owner, '201', BODY, TTL_MS),
      );
      return registration;
    };

    await attempt(0, 'owner-A');
    ctx.say('owner-A completed, then failed on its way out (its caller hung up): its error path releases the key');
    const released = await log.op(0, key, { op: 'release', owner: 'owner-A' }, () =>
      store.calls.release(key, 'owner-A'),
    );
    ctx.say(`owner-A release -> ${text(released)}`);
    ctx.say('the caller retries the same request');
    const retry = await attempt(1, 'owner-B');
    ctx.say(`retry register -> ${text(retry)}`);
    const responseSeenByRetry = Array.isArray(retry) && retry[0] === 'hit' ? String(retry[4]) : null;
    const check = summariseCheck(log.check());
    ctx.say(`operation ran ${executions} time(s); ${checkLine(check)}`);
    const staleCompletionRejected = metricSum(
      await store.metricsText(),
      'idempotency_stale_completion_rejected_total',
      { script: 'release' },
    );
    await redis.del(key);
    return {
      releaseReply: text(released),
      retryRegistration: text(retry).split(',')[0],
      executions,
      responseSeenByRetry,
      staleCompletionRejected,
      check,
    };
  });
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export const releaseResurrection: Scenario<ReleaseResurrectionObservations> = {
  name: 'release-resurrection',
  title: 'release without the state check deletes a completed key and the operation runs twice',
  row: 'the release of the idempotency store: a release that checks the owner but not the state can delete a finished record, so the operation is performed again',
  cluster: { masters: 3, replicasPerMaster: 0 },
  fault: 'the attempt completes, then fails on its way out and releases the key; the caller retries the same request',
  observe:
    'release answers 1 on a completed key, the retry registers fresh and the operation runs a second time; the checker names no-resurrection',
  metric: 'idempotency_stale_completion_rejected_total{script="release"}',
  broken: variant(
    'release.lua without the state check',
    { release: here('release.broken.lua') },
    'scenarios/release-resurrection/release.broken.lua',
  ),
  remediated: variant('the reference release.lua (pending only)', {}, 'lua/idempotency/release.lua'),
  judge(o) {
    const held =
      o.executions === 1 && o.releaseReply === '0' && o.responseSeenByRetry === BODY && o.check.verdict === 'ok';
    return {
      held,
      why: `release on the completed key answered ${o.releaseReply}, the retry saw ${o.retryRegistration}, the operation ran ${o.executions} time(s), checker ${o.check.verdict}`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.releaseReply !== '1') missing.push('release did not delete the completed key');
    if (o.executions !== 2) missing.push(`the operation ran ${o.executions} time(s), not twice`);
    if (!o.check.invariants.includes('no-resurrection'))
      missing.push(`the checker did not name no-resurrection (it said ${o.check.verdict})`);
    return missing;
  },
  metricValue: (o) => o.staleCompletionRejected,
};
