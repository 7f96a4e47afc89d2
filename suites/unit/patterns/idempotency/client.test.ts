import type { Cluster as IORedisCluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError } from '../../../../src/patterns/idempotency/body-cap.ts';
import { IdempotencyStore } from '../../../../src/patterns/idempotency/client.ts';
import { IdempotencyMetrics } from '../../../../src/patterns/idempotency/metrics.ts';
import type { ScriptArg, ScriptRunner } from '../../../../src/scripts/runner.ts';

/** Answers every call with a fixed reply and remembers what it was asked. */
class RecordingRunner implements ScriptRunner {
  readonly mode = 'evalsha' as const;
  readonly names = ['register_or_get', 'complete', 'release', 'renew'];
  readonly fallbacks = 0;
  readonly calls: { name: string; key: string; args: readonly ScriptArg[] }[] = [];
  constructor(private readonly reply: unknown) {}
  async prepare(): Promise<void> {}
  async call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    this.calls.push({ name, key, args });
    return this.reply;
  }
}

const redis = {} as IORedisCluster;
const store = (reply: unknown, options = {}) => {
  const runner = new RecordingRunner(reply);
  return { runner, store: IdempotencyStore.withRunner(redis, runner, new IdempotencyMetrics(), options) };
};

describe('IdempotencyStore options', () => {
  it('defaults to a 60 s lease and a 24 h TTL, overridable per store and per call', async () => {
    const a = store(1);
    await a.store.renew('k', 'o');
    await a.store.complete('k', 'o', { status: 200, body: '' });
    const b = store(1, { leaseMs: 5_000, ttlMs: 7_000 });
    await b.store.renew('k', 'o');
    await b.store.renew('k', 'o', { leaseMs: 9 });
    await b.store.complete('k', 'o', { status: 200, body: '' });
    await b.store.complete('k', 'o', { status: 200, body: '' }, { ttlMs: 11 });
    expect(a.runner.calls.map((c) => c.args.at(-1))).toEqual([60_000, 86_400_000]);
    expect(b.runner.calls.map((c) => c.args.at(-1))).toEqual([5_000, 9, 7_000, 11]);
  });

  it('refuses bad options, naming the option and where it was given', async () => {
    expect(() => store(1, { ttlMs: -1 })).toThrow(/IdempotencyStore: ttlMs must be a positive integer, got -1/);
    expect(() => store(1, { instanceId: '' })).toThrow(/instanceId/);
    expect(() => store(1, { leaseMS: 5 })).toThrow(/unknown option 'leaseMS'/);
    await expect(store(1).store.complete('k', 'o', { status: 200, body: '' }, { ttlMs: 0 })).rejects.toThrow(
      /complete: ttlMs/,
    );
  });

  it('makes owner tokens from its instance id', () => {
    const { store: s } = store(1, { instanceId: 'api-7' });
    expect(s.newOwner()).toMatch(/^api-7\/[0-9a-f]{16}$/);
  });
});

describe('IdempotencyStore policy on every path', () => {
  it('checks the body cap before calling Redis', async () => {
    const { runner, store: s } = store(1);
    await expect(s.complete('k', 'o', { status: 200, body: 'x'.repeat(65_537) })).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    await expect(s.calls.complete('k', 'o', 200, 'x'.repeat(65_537), 1000)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(runner.calls).toEqual([]);
  });

  it('counts a complete or release answered 0 as a rejected stale completion', async () => {
    const { store: s } = store(0);
    expect(await s.complete('k', 'o', { status: 200, body: '' })).toBe(false);
    expect(await s.release('k', 'o')).toBe(false);
    expect(await s.renew('k', 'o')).toBe(false);
    const text = await s.metricsText();
    expect(text).toMatch(/^idempotency_stale_completion_rejected_total\{script="complete"\} 1$/m);
    expect(text).toMatch(/^idempotency_stale_completion_rejected_total\{script="release"\} 1$/m);
  });

  it("passes the arguments in the order of the scripts' ARGV", async () => {
    const { runner, store: s } = store(1);
    await s.calls.registerOrGet('k', 'fp', 'o', 100);
    await s.calls.complete('k', 'o', 201, 'b', 200);
    expect(runner.calls).toEqual([
      { name: 'register_or_get', key: 'k', args: ['fp', 'o', 100] },
      { name: 'complete', key: 'k', args: ['o', 201, 'b', 200] },
    ]);
  });
});
