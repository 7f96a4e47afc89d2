// The reference clients' open() refuses bad options before it touches Redis, each message naming
// the client and the option.
import type { Cluster as IORedisCluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../../src/patterns/idempotency/client.ts';
import { LockClient } from '../../../src/patterns/lock/client.ts';
import { LimiterClient } from '../../../src/patterns/ratelimit/client.ts';
import { SemaphoreClient } from '../../../src/patterns/semaphore/client.ts';

const redis = {} as IORedisCluster;
const CLIENTS = [
  {
    name: 'IdempotencyStore',
    open: (o: object) => IdempotencyStore.open(redis, o),
    known: 'scriptsDir, mode, leaseMs, ttlMs, instanceId',
  },
  { name: 'LockClient', open: (o: object) => LockClient.open(redis, o), known: 'scriptsDir, mode, ttlMs' },
  { name: 'LimiterClient', open: (o: object) => LimiterClient.open(redis, o), known: 'scriptsDir, mode, variant' },
  { name: 'SemaphoreClient', open: (o: object) => SemaphoreClient.open(redis, o), known: 'scriptsDir, mode, ttlMs' },
];

describe("the reference clients' open()", () => {
  for (const { name, open, known } of CLIENTS) {
    it(`${name} refuses an unknown option, a bad mode and an empty scriptsDir`, async () => {
      await expect(open({ lease: 5 })).rejects.toThrow(
        new RangeError(`${name}: unknown option 'lease' (known: ${known})`),
      );
      await expect(open({ mode: 'eval' })).rejects.toThrow(
        new RangeError(`${name}: mode must be one of 'evalsha', 'fcall', got eval`),
      );
      await expect(open({ scriptsDir: '' })).rejects.toThrow(
        new TypeError(`${name}: scriptsDir must be a non-empty string, got `),
      );
      // In that order: the unknown option first, then the mode.
      await expect(open({ lease: 5, mode: 'eval', scriptsDir: '' })).rejects.toThrow(/unknown option 'lease'/);
      await expect(open({ mode: 'eval', scriptsDir: '' })).rejects.toThrow(/mode must be one of/);
    });
  }
});
