import type { Cluster as IORedisCluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { BodyTooLargeError } from '../../src/patterns/idempotency/body-cap.ts';
import { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';
import type { StoredResponse } from '../../src/patterns/idempotency/execute.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { fingerprint } from '../../src/patterns/idempotency/fingerprint.ts';

// execute(): replay, in progress, conflict, heartbeat, release on failure, and the metrics they move.

let cluster: LocalCluster;
let redis: IORedisCluster;
let serial = 0;
const freshKey = () => scopedKey('t', 'POST/v1/charges', `exec-${++serial}-${Date.now()}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const charge = { amount: 100, currency: 'eur' };
const created: StoredResponse = { status: 201, body: '{"id":"ch_1"}' };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The value of one sample line of Prometheus text, or undefined when absent. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

beforeAll(async () => {
  cluster = await sharedCluster();
  // maxmemory set so the memory gauges have a known non-zero figure to report (the shared cluster
  // puts it back for the next file).
  for (const node of cluster.nodes) await cluster.command(node.index, 'CONFIG', 'SET', 'maxmemory', '64mb');
  redis = cluster.connect();
});

afterAll(async () => {
  await redis?.quit();
});

describe('IdempotencyStore.execute', () => {
  it('runs the handler once and replays the stored response to the same request', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    let runs = 0;
    const handler = async () => (runs++, created);
    expect(await store.execute(key, charge, handler)).toEqual({
      kind: 'executed',
      response: created,
      stored: true,
      leaseLost: false,
    });
    // Same request with its properties in another order: same fingerprint.
    expect(await store.execute(key, { currency: 'eur', amount: 100 }, handler)).toEqual({
      kind: 'replayed',
      response: created,
    });
    expect(runs).toBe(1);
    expect(await redis.hget(key, 'fingerprint')).toBe(fingerprint(charge));
  });

  it('answers in-progress while another attempt of the same request is running', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    const gate = deferred<void>();
    const started = deferred<void>();
    const first = store.execute(key, charge, async () => (started.resolve(), await gate.promise, created));
    await started.promise;
    let secondRan = false;
    expect(await store.execute(key, charge, async () => ((secondRan = true), created))).toEqual({
      kind: 'in-progress',
    });
    gate.resolve();
    expect((await first).kind).toBe('executed');
    expect(secondRan).toBe(false);
  });

  it("answers conflict to a different request on the same key and never replays the other request's response", async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    await store.execute(key, charge, async () => created);
    let ran = false;
    const outcome = await store.execute(key, { ...charge, amount: 999 }, async () => ((ran = true), created));
    expect(outcome).toEqual({ kind: 'conflict', storedFingerprint: fingerprint(charge) });
    expect(ran).toBe(false);
  });

  it('keeps the lease alive past its length while the handler runs (heartbeat every lease/3)', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    const leaseMs = 600;
    const seen: { exists: number; state: string | null }[] = [];
    const outcome = await store.execute(
      key,
      charge,
      async () => {
        // Three leases long; look at the key from outside after each lease length.
        for (let i = 0; i < 3; i++) {
          await sleep(leaseMs);
          seen.push({ exists: await redis.exists(key), state: await redis.hget(key, 'state') });
        }
        return created;
      },
      { leaseMs },
    );
    expect(seen).toEqual(Array.from({ length: 3 }, () => ({ exists: 1, state: 'pending' })));
    expect(outcome).toEqual({ kind: 'executed', response: created, stored: true, leaseLost: false });
    expect(await redis.hget(key, 'state')).toBe('completed');
  });

  it('makes a lost lease visible: the handler is signalled, complete is refused, the newer owner is untouched', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    const leaseMs = 300;
    let aborted = false;
    const outcome = await store.execute(
      key,
      charge,
      async ({ signal }) => {
        // Another attempt takes the key over, as after an expiry during a freeze.
        await redis.del(key);
        await store.registerOrGet(key, fingerprint(charge), 'newer-owner');
        while (!signal.aborted) await sleep(20);
        aborted = signal.aborted;
        return created;
      },
      { leaseMs },
    );
    expect(aborted).toBe(true);
    expect(outcome).toEqual({ kind: 'executed', response: created, stored: false, leaseLost: true });
    expect(await redis.hgetall(key)).toEqual({
      state: 'pending',
      fingerprint: fingerprint(charge),
      owner: 'newer-owner',
    });
    const text = await store.metricsText();
    expect(sample(text, 'idempotency_lease_expired_while_pending_total')).toBe(1);
    expect(sample(text, 'idempotency_stale_completion_rejected_total{script="complete"}')).toBe(1);
  });

  it('releases the key and rethrows when the handler fails, so the next attempt runs', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    const failure = new Error('payment provider down');
    await expect(store.execute(key, charge, async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await redis.exists(key)).toBe(0);
    expect((await store.execute(key, charge, async () => created)).kind).toBe('executed');
  });

  it('refuses an oversize response (BodyTooLargeError) and releases the key', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    await expect(
      store.execute(key, charge, async () => ({ status: 200, body: 'z'.repeat(70_000) })),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await redis.exists(key)).toBe(0);
  });

  it('exposes every metric of the checklist with the values this test caused', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = freshKey();
    // Everything on one key, so every call after the flush meets the same (cold) master.
    await cluster.scriptFlush();
    await store.execute(key, charge, async () => ({ status: 200, body: 'x'.repeat(1000) })); // register + complete: one NOSCRIPT each
    await store.execute(key, charge, async () => created); // replay: register only
    await store.complete(key, 'owner-2', { status: 200, body: 'abc' }); // stale complete
    await store.release(key, 'owner-2'); // stale release (one NOSCRIPT)
    await expect(store.complete(key, 'owner-2', { status: 200, body: 'y'.repeat(100_000) })).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    await store.refreshMemory();
    const text = await store.metricsText();

    expect(sample(text, 'idempotency_script_duration_ms_count{script="register_or_get"}')).toBe(2);
    expect(sample(text, 'idempotency_script_duration_ms_count{script="complete"}')).toBe(2);
    expect(sample(text, 'idempotency_script_duration_ms_count{script="release"}')).toBe(1);
    expect(sample(text, 'idempotency_script_duration_ms_bucket{le="15",script="register_or_get"}')).toBeDefined();
    expect(sample(text, 'idempotency_noscript_total{script="register_or_get"}')).toBe(1);
    expect(sample(text, 'idempotency_noscript_total{script="complete"}')).toBe(1);
    expect(sample(text, 'idempotency_noscript_total{script="release"}')).toBe(1);
    expect(sample(text, 'idempotency_noscript_total{script="renew"}')).toBeUndefined();
    expect(sample(text, 'idempotency_stale_completion_rejected_total{script="complete"}')).toBe(1);
    expect(sample(text, 'idempotency_stale_completion_rejected_total{script="release"}')).toBe(1);
    expect(sample(text, 'idempotency_lease_expired_while_pending_total')).toBe(0);
    expect(sample(text, 'idempotency_body_bytes_count')).toBe(3);
    expect(sample(text, 'idempotency_body_bytes_sum')).toBe(1000 + 3 + 100_000);
    expect(sample(text, 'idempotency_body_bytes_bucket{le="65536"}')).toBe(2);

    const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master');
    const used = text.split('\n').filter((l) => l.startsWith('redis_memory_used_bytes{'));
    const max = text.split('\n').filter((l) => l.startsWith('redis_memory_max_bytes{'));
    expect(used).toHaveLength(masters.length);
    expect(max).toHaveLength(masters.length);
    for (const line of used) expect(Number(line.split(' ').pop())).toBeGreaterThan(100_000);
    for (const line of max) expect(Number(line.split(' ').pop())).toBe(64 * 1024 * 1024);
  });
});
