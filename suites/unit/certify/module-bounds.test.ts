import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { OpenFailure } from '../../../src/certify/open-failure.ts';
import { moduleOpener } from '../../../src/certify/openers/module.ts';
import type { Cluster } from '../../../src/cluster/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

// A module's createStore and each of its calls are bounded as a cmd: program's handshake and
// requests are, and reported as findings. These modules never touch Redis, so a cluster that only
// hands out connection objects is enough to open them: objects that look ready to the readiness wait
// before createStore (slot table full, one master answering PING), which suites/certify tests for real.

const FIXTURES = path.resolve(import.meta.dirname, '../../certify/fixtures/bad-impls');
const readyLookingClient = () => ({
  status: 'ready',
  slots: Array.from({ length: 16384 }, () => ['127.0.0.1:1']),
  nodes: () => [{ ping: async () => 'PONG', options: { host: '127.0.0.1', port: 1 } }],
  on: () => undefined,
  disconnect: () => undefined,
});
const noRedis = { connect: readyLookingClient } as unknown as Cluster;

describe('module: bounds', () => {
  it('a createStore that never resolves is an OpenFailure naming the limit', async () => {
    const open = moduleOpener(PATTERNS.idempotency, path.join(FIXTURES, 'hanging-create-store.ts'), {
      createTimeoutMs: 200,
    });
    const failure = await open(noRedis, 2).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenFailure);
    expect((failure as OpenFailure).finding).toBe('module-create-store');
    expect((failure as Error).message).toMatch(/hanging-create-store\.ts: createStore did not resolve within 200 ms/);
  });

  it('a call that never answers becomes a hang finding once its limit passes', async () => {
    const opened = await moduleOpener(PATTERNS.lock, path.join(FIXTURES, 'hanging-calls-store.ts'), {
      callTimeoutMs: 100,
    })(noRedis, 1);
    expect(opened.findings()).toEqual([]);
    void opened.subjects[0].invoke('k1', { op: 'acquire', token: 't', ttlMs: 500 });
    await vi.waitFor(
      () =>
        expect(opened.findings()).toEqual([
          expect.stringMatching(/^hang: module:.*hanging-calls-store\.ts acquire on k1 did not answer within 100 ms$/),
        ]),
      { timeout: 5_000 },
    );
    await opened.close();
  });

  it("a call's error passes through to the runner, which records it", async () => {
    const opened = await moduleOpener(PATTERNS.ratelimit, path.join(FIXTURES, 'errors-only-store.ts'), {
      callTimeoutMs: 100,
    })(noRedis, 1);
    await expect(opened.subjects[0].invoke('k1', { op: 'hit', limit: 3, windowSeconds: 1 })).rejects.toThrow(
      'ERR not implemented',
    );
    await opened.close();
  });
});
