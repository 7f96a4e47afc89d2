import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintPath } from '../../src/lint/index.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { replyText } from '../../src/model/reply.ts';
import {
  OpLog,
  checkLine,
  metricSum,
  openStore,
  sleep,
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

const LEASE_MS = 300;
/** A's stall: well past its lease, and long enough for B to register and complete meanwhile. */
const FREEZE_MS = 900;
/** B retries once A's lease is certainly gone (lease + the checker's 25 ms slack + margin). */
const B_AFTER_MS = 450;
const TTL_MS = 60_000;
const BODY_A = '{"charge":"ch_A","attempt":"A (stale)"}';
const BODY_B = '{"charge":"ch_B","attempt":"B (newer)"}';

export interface StaleCompletionObservations {
  readonly replies: Record<string, string>;
  readonly storedBody: string | null;
  readonly lintOwnerFindings: number;
  readonly staleCompletionRejected: number;
  readonly check: CheckSummary;
}

function variant(label: string, overrides: ScriptOverrides, source: string): Variant<StaleCompletionObservations> {
  return { label, source, run: (ctx) => trial(ctx, overrides) };
}

async function trial(ctx: StepContext, overrides: ScriptOverrides): Promise<StaleCompletionObservations> {
  const completeFile =
    overrides.complete ?? fileURLToPath(new URL('../../lua/idempotency/complete.lua', import.meta.url));
  const lintOwnerFindings = (await lintPath(completeFile)).filter((f) => f.rule === 'owner-check-first').length;
  ctx.say(`lint owner-check-first on ${path.basename(completeFile)}: ${lintOwnerFindings} finding(s)`);
  return withConnection(ctx.cluster, async (redis) => {
    const store = await openStore(idempotencyStores, redis, overrides, { ttlMs: TTL_MS });
    const log = new OpLog(idempotency);
    const key = scopedKey(ctx.namespace, 'POST/v1/charges', 'order-1');
    const [A, B, C] = ['owner-A', 'owner-B', 'owner-C'];
    const replies: Record<string, string> = {};
    const note = (name: string, reply: unknown) => {
      replies[name] = Array.isArray(reply)
        ? reply.map((r) => replyText(r)).join(',')
        : String(replyText(reply) ?? reply);
      ctx.say(`${name} -> ${replies[name]}`);
    };
    const register = (client: number, owner: string) =>
      log.op(client, key, { op: 'register', fingerprint: 'fp', owner, leaseMs: LEASE_MS }, () =>
        store.calls.registerOrGet(key, 'fp', owner, LEASE_MS),
      );
    const complete = (client: number, owner: string, body: string) =>
      log.op(client, key, { op: 'complete', owner, status: '201', body, ttlMs: TTL_MS }, () =>
        store.calls.complete(key, owner, '201', body, TTL_MS),
      );

    note(`A register (lease ${LEASE_MS} ms)`, await register(0, A));
    let bDone!: () => void;
    const bFinished = new Promise<void>((resolve) => (bDone = resolve));
    const attemptA = (async () => {
      const frozenAt = log.now();
      // The stall lasts at least FREEZE_MS and until B is done, so the order holds on a loaded machine too.
      await Promise.all([sleep(FREEZE_MS), bFinished]);
      log.fault(
        'client-freeze',
        'client A',
        frozenAt,
        false,
        `A stalled ${Math.round(log.now() - frozenAt)} ms holding owner token ${A}`,
      );
      ctx.say(`A resumes after a ${Math.round(log.now() - frozenAt)} ms freeze, still holding ${A}`);
      note('A complete (stale)', await complete(0, A, BODY_A));
    })();
    const attemptB = (async () => {
      await sleep(B_AFTER_MS);
      note("B register (A's lease has expired)", await register(1, B));
      note('B complete', await complete(1, B, BODY_B));
    })().finally(() => bDone());
    await Promise.all([attemptA, attemptB]);
    const read = await register(2, C);
    const storedBody = Array.isArray(read) && read[0] === 'hit' ? String(read[4]) : null;
    ctx.say(`stored response now: ${storedBody}`);
    const check = summariseCheck(log.check());
    ctx.say(checkLine(check));
    const staleCompletionRejected = metricSum(
      await store.metricsText(),
      'idempotency_stale_completion_rejected_total',
      { script: 'complete' },
    );
    await redis.del(key);
    return { replies, storedBody, lintOwnerFindings, staleCompletionRejected, check };
  });
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export const staleCompletion: Scenario<StaleCompletionObservations> = {
  name: 'stale-completion',
  title: 'complete without the owner check lets a frozen attempt overwrite a newer response',
  row: 'failure table, idempotency store: without an owner comparison in complete, an attempt whose lease ran out replaces the response of the attempt that took over',
  cluster: { masters: 3, replicasPerMaster: 0 },
  fault: `client freeze: A registers with a ${LEASE_MS} ms lease and stalls ${FREEZE_MS} ms; B registers after the lease ran out and completes; A resumes and completes with its old token`,
  observe: "A's complete answers 1 and the stored body becomes A's; the checker names no-stale-overwrite",
  metric: 'idempotency_stale_completion_rejected_total{script="complete"}',
  broken: variant(
    'complete.lua without the owner comparison',
    { complete: here('complete.broken.lua') },
    'scenarios/stale-completion/complete.broken.lua',
  ),
  remediated: variant('the reference complete.lua (owner compared first)', {}, 'lua/idempotency/complete.lua'),
  judge(o) {
    const held =
      o.replies['A complete (stale)'] === '0' &&
      o.storedBody === BODY_B &&
      o.check.verdict === 'ok' &&
      o.staleCompletionRejected === 1;
    const stored =
      o.storedBody === BODY_B ? "B's (newer)" : o.storedBody === BODY_A ? "A's (stale)" : String(o.storedBody);
    return {
      held,
      why: `stale complete answered ${o.replies['A complete (stale)']}, stored body is ${stored}, checker ${o.check.verdict}, rejections counted ${o.staleCompletionRejected}`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.replies['A complete (stale)'] !== '1') missing.push('the stale complete was not accepted');
    if (o.storedBody !== BODY_A) missing.push('the newer response was not overwritten by the stale one');
    if (!o.check.invariants.includes('no-stale-overwrite'))
      missing.push(
        `the checker did not name no-stale-overwrite (it said ${o.check.verdict} ${o.check.invariants.join(',')})`,
      );
    if (o.staleCompletionRejected !== 0)
      missing.push('the stale-completion counter moved although nothing was rejected');
    return missing;
  },
  metricValue: (o) => o.staleCompletionRejected,
  notes: ['`chaoslua lint` flags the broken complete.lua statically too (rule owner-check-first).'],
};
