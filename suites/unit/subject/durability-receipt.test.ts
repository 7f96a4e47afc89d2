import type { Cluster as IORedisCluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { parseProgramLine } from '../../../src/process-protocol/protocol.ts';
import { moduleSubject, type StoreFactoryOptions } from '../../../src/impl/module-subject.ts';
import type { Receipt } from '../../../src/subject/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

// How an implementation reports WAIT's answer with an operation (docs/module-contract.md,
// docs/process-protocol.md). No Redis here: the store below answers from memory, and the module
// contract's plumbing (which call a report belongs to) is what is under test.

/** A store that reports, for each call, the number it is given in `owner` ("r<n>"), after a delay that interleaves the calls. */
function reportingFactory(seen: StoreFactoryOptions[]) {
  return (_redis: IORedisCluster, options: StoreFactoryOptions) => {
    seen.push(options);
    const answer = async (owner: string, delayMs: number) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      options.durability?.acknowledged(Number(owner.slice(1)));
      return 1;
    };
    return {
      registerOrGet: async (_key: string, _f: string, owner: string) => (await answer(owner, 20), ['fresh']),
      complete: (_key: string, owner: string) => answer(owner, 5),
      release: (_key: string, owner: string) => answer(owner, 1),
      renew: (_key: string, owner: string) => answer(owner, 10),
    };
  };
}

describe("module: durability in createStore's options, acknowledged(n) pinned on the call that made it", () => {
  it('createStore is told replicas and timeout only when asked; concurrent calls each get their own count', async () => {
    const seen: StoreFactoryOptions[] = [];
    const plain = await moduleSubject(
      reportingFactory(seen),
      'store.ts',
      PATTERNS.idempotency,
      {} as IORedisCluster,
      'ns',
    );
    expect(seen[0].durability).toBeUndefined();
    const receipt: Receipt = {};
    await plain.invoke('k', { op: 'release', owner: 'r1' }, receipt);
    expect(receipt).toEqual({});

    const subject = await moduleSubject(
      reportingFactory(seen),
      'store.ts',
      PATTERNS.idempotency,
      {} as IORedisCluster,
      'ns',
      undefined,
      { replicas: 1, timeoutMs: 100 },
    );
    expect(seen[1].durability).toMatchObject({ replicas: 1, timeoutMs: 100 });
    const receipts: Receipt[] = [{}, {}, {}, {}];
    await Promise.all([
      subject.invoke('a', { op: 'register', fingerprint: 'f', owner: 'r3', leaseMs: 100 }, receipts[0]),
      subject.invoke('b', { op: 'complete', owner: 'r0', status: '200', body: 'x', ttlMs: 100 }, receipts[1]),
      subject.invoke('c', { op: 'release', owner: 'r2' }, receipts[2]),
      subject.invoke('d', { op: 'renew', owner: 'r1', leaseMs: 100 }, receipts[3]),
    ]);
    expect(receipts.map((r) => r.acknowledgedReplicas)).toEqual([3, 0, 2, 1]);
  });

  it('a count that is not an integer >= 0 is ignored, not recorded', async () => {
    const seen: StoreFactoryOptions[] = [];
    const subject = await moduleSubject(
      reportingFactory(seen),
      'store.ts',
      PATTERNS.idempotency,
      {} as IORedisCluster,
      'ns',
      undefined,
      { replicas: 1, timeoutMs: 100 },
    );
    const receipt: Receipt = {};
    await subject.invoke('k', { op: 'release', owner: 'r-1' }, receipt);
    expect(receipt.acknowledgedReplicas).toBeUndefined();
  });
});

describe('process protocol: acknowledgedReplicas on a response', () => {
  it('is optional, and read when it is an integer >= 0', () => {
    expect(parseProgramLine('{"type":"response","id":1,"ok":true,"result":1}')).toEqual({
      message: { type: 'response', id: 1, ok: true, result: 1 },
    });
    expect(parseProgramLine('{"type":"response","id":2,"ok":true,"result":1,"acknowledgedReplicas":1}')).toEqual({
      message: { type: 'response', id: 2, ok: true, result: 1, acknowledgedReplicas: 1 },
    });
  });

  it.each(['-1', '1.5', '"1"', 'null'])('acknowledgedReplicas %s is a malformed response', (value) => {
    const parsed = parseProgramLine(`{"type":"response","id":3,"ok":true,"result":1,"acknowledgedReplicas":${value}}`);
    expect(parsed).toMatchObject({
      problem: expect.stringMatching(/^response 3 has acknowledgedReplicas that is not an integer >= 0/),
    });
  });
});
