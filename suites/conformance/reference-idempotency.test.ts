import type { Cluster as IORedisCluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { BodyTooLargeError } from '../../src/patterns/idempotency/body-cap.ts';
import { IDEMPOTENCY_SCRIPTS } from '../../src/patterns/idempotency/calls.ts';
import { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { IdempotencyMetrics } from '../../src/patterns/idempotency/metrics.ts';
import { projectScriptsDir } from '../../src/scripts/paths.ts';
import { loadScriptDir } from '../../src/scripts/source.ts';
import { EvalshaRunner } from '../../src/scripts/runner.ts';

// Seed 000's verification section, run through the reference client on a 3+3 LocalCluster.

let cluster: LocalCluster;
let redis: IORedisCluster;
let store: IdempotencyStore;
let serial = 0;
const freshKey = (label: string) => scopedKey('t', 'POST/v1/charges', `${label}-${++serial}-${Date.now()}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  cluster = await sharedCluster();
  redis = cluster.connect();
  store = await IdempotencyStore.open(redis);
});

afterAll(async () => {
  await redis?.quit();
});

describe('reference idempotency client against its contracts', () => {
  it('64 concurrent register_or_get on one key from 64 separate connections: exactly one fresh', async () => {
    const key = freshKey('concurrency');
    const scripts = loadScriptDir(projectScriptsDir('idempotency'), IDEMPOTENCY_SCRIPTS);
    const clients = Array.from({ length: 64 }, () => cluster.connect());
    try {
      const stores = clients.map((c) =>
        IdempotencyStore.withRunner(c, new EvalshaRunner(c, scripts.values()), new IdempotencyMetrics()),
      );
      await Promise.all(clients.map((c) => c.ping()));
      const owners = stores.map((_, i) => `owner-${i}`);
      const results = await Promise.all(stores.map((s, i) => s.registerOrGet(key, 'fp', owners[i])));
      const winners = results.flatMap((r, i) => (r.kind === 'fresh' ? [owners[i]] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'hit' && r.state === 'pending' && r.fingerprint === 'fp')).toHaveLength(
        63,
      );
      expect(await redis.hget(key, 'owner')).toBe(winners[0]);
    } finally {
      await Promise.all(clients.map((c) => c.quit()));
    }
  });

  it('a complete by another owner returns 0 and the record stays pending', async () => {
    const key = freshKey('stale');
    expect((await store.registerOrGet(key, 'fp', 'owner-1')).kind).toBe('fresh');
    expect(await store.complete(key, 'owner-999', { status: 201, body: '{"id":"ch_1"}' })).toBe(false);
    expect(await redis.hget(key, 'state')).toBe('pending');
    expect(await redis.hget(key, 'body')).toBeNull();
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(60_000);
  });

  it('an abandoned pending key clears itself when its lease runs out', async () => {
    const key = freshKey('lease');
    expect((await store.registerOrGet(key, 'fp', 'owner-1', { leaseMs: 200 })).kind).toBe('fresh');
    const pttl = await redis.pttl(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(200);
    await sleep(pttl + 50);
    expect(await redis.exists(key)).toBe(0);
    expect((await store.registerOrGet(key, 'fp', 'owner-2')).kind).toBe('fresh');
  });

  it('complete stores the response for the TTL, and a later register replays it', async () => {
    const key = freshKey('complete');
    await store.registerOrGet(key, 'fp', 'owner-1');
    expect(await store.complete(key, 'owner-1', { status: 201, body: '{"id":"ch_1"}' }, { ttlMs: 5_000 })).toBe(true);
    expect(await redis.hgetall(key)).toEqual({
      state: 'completed',
      fingerprint: 'fp',
      owner: 'owner-1',
      status: '201',
      body: '{"id":"ch_1"}',
    });
    const pttl = await redis.pttl(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(5_000);
    expect(await store.registerOrGet(key, 'other', 'owner-2')).toEqual({
      kind: 'hit',
      state: 'completed',
      fingerprint: 'fp',
      status: 201,
      body: '{"id":"ch_1"}',
    });
  });

  it('a release after complete deletes nothing', async () => {
    const key = freshKey('release-after-complete');
    await store.registerOrGet(key, 'fp', 'owner-1');
    await store.complete(key, 'owner-1', { status: 200, body: 'done' });
    expect(await store.release(key, 'owner-1')).toBe(false);
    expect(await redis.exists(key)).toBe(1);
    expect(await redis.hmget(key, 'state', 'body')).toEqual(['completed', 'done']);
  });

  it('release by the owner of a pending key deletes it; by anyone else it does nothing', async () => {
    const key = freshKey('release');
    await store.registerOrGet(key, 'fp', 'owner-1');
    expect(await store.release(key, 'owner-2')).toBe(false);
    expect(await redis.exists(key)).toBe(1);
    expect(await store.release(key, 'owner-1')).toBe(true);
    expect(await redis.exists(key)).toBe(0);
  });

  it('renew extends the lease of the owner only, and only while pending', async () => {
    const key = freshKey('renew');
    await store.registerOrGet(key, 'fp', 'owner-1', { leaseMs: 1_000 });
    expect(await store.renew(key, 'owner-2', { leaseMs: 50_000 })).toBe(false);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(1_000);
    expect(await store.renew(key, 'owner-1', { leaseMs: 50_000 })).toBe(true);
    expect(await redis.pttl(key)).toBeGreaterThan(1_000);
    await store.complete(key, 'owner-1', { status: 200, body: '' }, { ttlMs: 3_000 });
    expect(await store.renew(key, 'owner-1', { leaseMs: 50_000 })).toBe(false);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(3_000);
  });

  it('caps the stored body at 64 KiB before anything reaches Redis', async () => {
    const key = freshKey('cap');
    await store.registerOrGet(key, 'fp', 'owner-1');
    const error = await store
      .complete(key, 'owner-1', { status: 200, body: 'x'.repeat(65_537) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).bytes).toBe(65_537);
    expect(await redis.hget(key, 'state')).toBe('pending');
    const atCap = 'y'.repeat(65_536);
    expect(await store.complete(key, 'owner-1', { status: 200, body: atCap })).toBe(true);
    const replay = await store.registerOrGet(key, 'fp', 'owner-2');
    expect(replay.kind === 'hit' && replay.body).toBe(atCap);
  });

  it('refuses bad options at the edge, naming the option', async () => {
    await expect(IdempotencyStore.open(redis, { leaseMs: 0 })).rejects.toThrow(/leaseMs must be a positive integer/);
    await expect(IdempotencyStore.open(redis, { mode: 'eval' as never })).rejects.toThrow(/mode must be one of/);
    await expect(IdempotencyStore.open(redis, { lease: 5 } as never)).rejects.toThrow(/unknown option 'lease'/);
    await expect(store.registerOrGet(freshKey('opt'), 'fp', 'o', { leaseMs: 1.5 })).rejects.toThrow(
      /registerOrGet: leaseMs/,
    );
  });

  it("computes the slot Redis computes for scoped keys (every operation's key lands in one slot)", async () => {
    for (const key of [freshKey('slot'), scopedKey('cred:7', 'POST/v1/{id}', 'k%1'), scopedKey('ünï', 'r', 'k')]) {
      expect(keySlot(key)).toBe(await cluster.command(0, 'CLUSTER', 'KEYSLOT', key));
    }
  });

  it('FCALL mode: the Functions library gives the same answers and needs no reload after SCRIPT FLUSH', async () => {
    const fstore = await IdempotencyStore.open(redis, { mode: 'fcall' });
    const key = freshKey('fcall');
    expect(await fstore.registerOrGet(key, 'fp', 'owner-1')).toEqual({ kind: 'fresh' });
    expect(await fstore.complete(key, 'owner-2', { status: 201, body: 'b' })).toBe(false);
    await cluster.scriptFlush();
    expect(await fstore.complete(key, 'owner-1', { status: 201, body: 'b' })).toBe(true);
    expect(await fstore.registerOrGet(key, 'fp', 'owner-3')).toEqual({
      kind: 'hit',
      state: 'completed',
      fingerprint: 'fp',
      status: 201,
      body: 'b',
    });
    expect(fstore.noscriptFallbacks).toBe(0);
  });
});
