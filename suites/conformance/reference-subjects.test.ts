import fc from 'fast-check';
import type { Cluster as IORedisCluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import type { Model } from '../../src/model/index.ts';
import { idempotency, lock, ratelimit } from '../../src/patterns/models.ts';
import type { IdempotencyInput, LockInput, RateLimitInput } from '../../src/patterns/models.ts';
import { LimiterClient } from '../../src/patterns/ratelimit/client.ts';
import { LockClient } from '../../src/patterns/lock/client.ts';
import { createReferenceSubject, type ReferenceSubject } from '../../src/impl/reference.ts';

// Lock and limiter clients, and the three Subject adapters checked against the reference models.

let cluster: LocalCluster;
let redis: IORedisCluster;
let serial = 0;
const fresh = (label: string) => `${label}-${++serial}-${Date.now()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  cluster = await sharedCluster();
  redis = cluster.connect();
});

afterAll(async () => {
  await redis?.quit();
});

/** Sequential differential run: every reply of the subject is one the model prescribes (TTLs too long to expire here). */
async function conformsSequentially<S, I, O>(
  subject: ReferenceSubject<I, O>,
  model: Model<S, I, O>,
  inputs: fc.Arbitrary<I[]>,
  label: string,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(inputs, async (ops) => {
      const key = fresh(label);
      let state = model.init();
      for (const [id, input] of ops.entries()) {
        const step = model.step(state, input, id);
        const observed = await subject.invoke(key, input);
        if (!model.outputMatches(step.output, observed)) {
          throw new Error(
            `${model.describeInput(input)}: model says ${model.describeOutput(step.output)}, subject said ${JSON.stringify(observed)}`,
          );
        }
        state = step.state;
      }
    }),
    { numRuns: 25, seed: 4242 },
  );
}

describe('LockClient', () => {
  it('acquire, compare-and-delete release and extend follow the lock model', async () => {
    const client = await LockClient.open(redis);
    const key = `lock:{${fresh('lock')}}`;
    const [mine, theirs] = [client.newToken(), client.newToken()];
    expect(mine).not.toBe(theirs);
    expect(await client.acquire(key, mine, 10_000)).toBe(true);
    expect(await client.acquire(key, theirs, 10_000)).toBe(false);
    expect(await client.acquire(key, mine, 10_000)).toBe(false);
    expect(await client.release(key, theirs)).toBe('other-token');
    expect(await redis.get(key)).toBe(mine);
    expect(await client.extend(key, theirs, 50_000)).toBe('other-token');
    expect(await redis.pttl(key)).toBeLessThanOrEqual(10_000);
    expect(await client.extend(key, mine, 50_000)).toBe('done');
    expect(await redis.pttl(key)).toBeGreaterThan(10_000);
    expect(await client.release(key, mine)).toBe('done');
    expect(await redis.exists(key)).toBe(0);
    expect(await client.release(key, mine)).toBe('absent');
    expect(await client.extend(key, mine, 1_000)).toBe('absent');
  });

  it('a lock whose TTL ran out can be taken by another token', async () => {
    const client = await LockClient.open(redis);
    const key = `lock:{${fresh('ttl')}}`;
    expect(await client.acquire(key, 'a', 150)).toBe(true);
    await sleep(Math.max(0, await redis.pttl(key)) + 50);
    expect(await client.acquire(key, 'b', 10_000)).toBe(true);
    expect(await client.release(key, 'a')).toBe('other-token');
  });

  it('refuses a non-positive TTL on the typed call, naming it', async () => {
    const client = await LockClient.open(redis);
    await expect(client.acquire('lock:{x}', 'a', 0)).rejects.toThrow(
      /LockClient.acquire: ttlMs must be a positive integer/,
    );
  });
});

describe('LimiterClient', () => {
  it('get-first allows `limit` hits per window and stops counting at the limit', async () => {
    const client = await LimiterClient.open(redis);
    const key = `rl:{${fresh('get')}}`;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await client.hit(key, 3, 60));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(await redis.get(key)).toBe('3');
    expect(await redis.ttl(key)).toBeGreaterThan(0);
  });

  it('incr-first gives the same answers and keeps counting blocked hits', async () => {
    const client = await LimiterClient.open(redis, { variant: 'incr-first' });
    const key = `rl:{${fresh('incr')}}`;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await client.hit(key, 3, 60));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(await redis.get(key)).toBe('5');
  });

  it('a new window starts when the counter expires', async () => {
    const client = await LimiterClient.open(redis);
    const key = `rl:{${fresh('window')}}`;
    expect(await client.hit(key, 1, 1)).toBe(true);
    expect(await client.hit(key, 1, 1)).toBe(false);
    await sleep(Math.max(0, await redis.pttl(key)) + 50);
    expect(await client.hit(key, 1, 1)).toBe(true);
  });

  it('refuses an unknown variant, naming the option', async () => {
    await expect(LimiterClient.open(redis, { variant: 'sliding' as never })).rejects.toThrow(
      /variant must be one of 'get-first', 'incr-first'/,
    );
  });
});

describe('reference subjects answer what the models prescribe', () => {
  const owner = fc.constantFrom('o1', 'o2', 'o3');
  const idempotencyInput: fc.Arbitrary<IdempotencyInput> = fc.oneof(
    fc.record({
      op: fc.constant('register' as const),
      fingerprint: fc.constantFrom('f1', 'f2'),
      owner,
      leaseMs: fc.constant(60_000),
    }),
    fc.record({
      op: fc.constant('complete' as const),
      owner,
      status: fc.constantFrom('200', '201'),
      body: fc.constantFrom('a', '{"id":1}'),
      ttlMs: fc.constant(60_000),
    }),
    fc.record({ op: fc.constant('release' as const), owner }),
    fc.record({ op: fc.constant('renew' as const), owner, leaseMs: fc.constant(60_000) }),
  );
  const token = fc.constantFrom('t1', 't2');
  const lockInput: fc.Arbitrary<LockInput> = fc.oneof(
    fc.record({ op: fc.constant('acquire' as const), token, ttlMs: fc.constant(60_000) }),
    fc.record({ op: fc.constant('release' as const), token }),
    fc.record({ op: fc.constant('extend' as const), token, ttlMs: fc.constant(60_000) }),
  );
  // One limit per key (the model's precondition for the INCR-first variant).
  const hits: fc.Arbitrary<RateLimitInput[]> = fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 8 }))
    .map(([limit, n]) => Array.from({ length: n }, () => ({ op: 'hit' as const, limit, windowSeconds: 60 })));

  it('idempotency (EVALSHA)', async () => {
    const subject = await createReferenceSubject('idempotency', redis, { namespace: 'conf' });
    expect(subject.redisKey('k1')).toBe('idem:v1:{conf:certify:k1}');
    await conformsSequentially(subject, idempotency, fc.array(idempotencyInput, { maxLength: 12 }), 'idem');
    await subject.close();
    expect(redis.status).toBe('ready');
  });

  it('idempotency (FCALL)', async () => {
    const subject = await createReferenceSubject('idempotency', redis, { mode: 'fcall' });
    expect(subject.name).toMatch(/fcall/);
    await conformsSequentially(subject, idempotency, fc.array(idempotencyInput, { maxLength: 12 }), 'idem-f');
  });

  it('lock', async () => {
    const subject = await createReferenceSubject('lock', redis);
    expect(subject.redisKey('k1')).toBe('lock:{chaoslua:k1}');
    await conformsSequentially(subject, lock, fc.array(lockInput, { maxLength: 12 }), 'lock');
  });

  it('ratelimit, both variants', async () => {
    for (const variant of ['get-first', 'incr-first'] as const) {
      const subject = await createReferenceSubject('ratelimit', redis, { variant });
      expect(subject.name).toContain(variant);
      await conformsSequentially(subject, ratelimit, hits, `rl-${variant}`);
    }
  });

  it('validates its options at the edge', async () => {
    await expect(createReferenceSubject('lock', redis, { variant: 'incr-first' })).rejects.toThrow(
      /variant applies to ratelimit only/,
    );
    await expect(createReferenceSubject('idempotency', redis, { namespace: 'a}b' })).rejects.toThrow(
      /namespace must not contain braces/,
    );
    await expect(createReferenceSubject('queue' as never, redis)).rejects.toThrow(/pattern must be one of/);
  });

  it('quits the client on close() only when told to', async () => {
    const own = cluster.connect();
    const subject = await createReferenceSubject('lock', own, { quitOnClose: true });
    await subject.close();
    expect(['disconnecting', 'close', 'end']).toContain(own.status);
  });
});
