/**
 * What real libraries' calls say, in both doors, as the third-party adapters met them: an acquire given back inside its call
 * (Redlock's validity rule), a refusal that wrote nothing, second keys and computed key names. No
 * Redis here: the stores answer from memory; the process door's message parsing and key requests are
 * tested on their own, and end to end with Python, Go and Java programs in suites/certify.
 */
import type { Cluster as IORedisCluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { moduleSubject, type LoadedModule } from '../../../src/impl/module-subject.ts';
import { parseCapabilities } from '../../../src/patterns/capabilities.ts';
import { parseKeyMapping } from '../../../src/patterns/key-mapping.ts';
import { GaveBackError } from '../../../src/impl/declared-answers.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { RefusedError } from '../../../src/plan/refusal.ts';
import { parseProgramLine } from '../../../src/process-protocol/protocol.ts';
import { classifyError } from '../../../src/runner/classify.ts';
import type { Receipt } from '../../../src/subject/types.ts';
import { history, ok, op } from '../checker/support/ops.ts';

const lockModule = (store: Record<string, unknown>, capabilities: unknown, keys?: unknown): LoadedModule => ({
  factory: () => store,
  capabilities: { lock: capabilities },
  keys,
});

describe('an acquire given back inside its call', () => {
  it('is declared per operation, only where the pattern says an operation can give back', () => {
    expect(
      parseCapabilities(PATTERNS.lock, { acquire: { level: 'boolean', givesBack: true } }, 'c').operations.acquire,
    ).toEqual({ level: 'boolean', handle: false, givesBack: true });
    expect(() => parseCapabilities(PATTERNS.lock, { release: { level: 'boolean', givesBack: true } }, 'c')).toThrow(
      'c.release.givesBack: release cannot give back inside its call (only acquire can)',
    );
    expect(() => parseCapabilities(PATTERNS.ratelimit, { hit: { level: 'boolean', givesBack: true } }, 'c')).toThrow(
      'no ratelimit operation can',
    );
  });

  it("is recorded as the acquire and its holder's release, both indeterminate from the call on", async () => {
    const store = { acquire: async () => ({ answer: false, gaveBack: true }), release: async () => true };
    const subject = await moduleSubject(
      lockModule(store, { acquire: { level: 'boolean', givesBack: true }, release: 'boolean' }),
      'x.mjs',
      PATTERNS.lock,
      {} as IORedisCluster,
      'ns',
    );
    const receipt: Receipt = {};
    const error = await subject
      .invoke('k', { op: 'acquire', token: 'c1a0', ttlMs: 1000 }, receipt)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GaveBackError);
    expect(classifyError(error)).toBe('info');
    expect(receipt.alsoDid).toEqual([
      { input: { op: 'release', token: 'c1a0' }, error: 'release inside the acquire call that gave back' },
    ]);
    // Without the declaration such an answer is an answer like any other (judged, and wrong).
    const undeclared = await moduleSubject(
      lockModule(store, { acquire: 'boolean', release: 'boolean' }),
      'x.mjs',
      PATTERNS.lock,
      {} as IORedisCluster,
      'ns',
    );
    expect(await undeclared.invoke('k', { op: 'acquire', token: 'c1a0', ttlMs: 1000 }, {})).toEqual({
      level: 'boolean',
      op: 'acquire',
      answer: { answer: false, gaveBack: true },
    });
  });

  it('explains another client refused while the lock was briefly taken, and a double grant is still caught', () => {
    const boolean = (answer: boolean) => ok({ level: 'boolean', op: 'acquire', answer } as never);
    const a = [
      op<LockInput, LockOutput>(1, { op: 'acquire', token: 'a', ttlMs: 1000 }, 0, 100, 'info'),
      op<LockInput, LockOutput>(1, { op: 'release', token: 'a' }, 0, 100, 'info'),
    ];
    // b was refused at 50 ms: only a's brief hold explains it; c is granted after a gave it back.
    const legal = [
      ...a,
      op<LockInput, LockOutput>(2, { op: 'acquire', token: 'b', ttlMs: 1000 }, 40, 60, boolean(false)),
      op<LockInput, LockOutput>(3, { op: 'acquire', token: 'c', ttlMs: 1000 }, 150, 160, boolean(true)),
    ];
    expect(check(history(legal), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('ok');
    const twice = [
      ...legal,
      op<LockInput, LockOutput>(4, { op: 'acquire', token: 'd', ttlMs: 1000 }, 170, 180, boolean(true)),
    ];
    expect(check(history(twice), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('illegal');
  });
});

describe('a refusal that wrote nothing', () => {
  it('module: a method resolving { refused } is a failed call (certainly no effect)', async () => {
    const store = {
      acquire: async () => ({ refused: 'held by this process already' }),
      release: async () => true,
      extend: async () => true,
    };
    const subject = await moduleSubject(
      lockModule(store, { acquire: 'boolean', release: 'boolean', extend: 'boolean' }),
      'x.mjs',
      PATTERNS.lock,
      {} as IORedisCluster,
      'ns',
    );
    const error = await subject.invoke('k', { op: 'acquire', token: 't', ttlMs: 1000 }, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedError);
    expect((error as Error).message).toBe('refused without writing: held by this process already');
    expect(classifyError(error)).toBe('fail');
    expect(classifyError(new Error('refused without writing: x'))).toBe('info');
  });

  it('process: a response with refused:true, checked', () => {
    expect(parseProgramLine('{"type":"response","id":3,"ok":false,"refused":true,"error":"lock held"}')).toEqual({
      message: { type: 'response', id: 3, ok: false, error: 'lock held', refused: true },
    });
    expect(parseProgramLine('{"type":"response","id":3,"ok":false,"refused":false,"error":"x"}')).toEqual({
      message: { type: 'response', id: 3, ok: false, error: 'x' },
    });
    expect(parseProgramLine('{"type":"response","id":3,"ok":false,"refused":"yes","error":"x"}')).toEqual({
      problem: expect.stringMatching(/^response 3 has refused that is not true or false/),
    });
  });
});

describe('second keys and computed key names', () => {
  it('key templates, in either door: every key, main one first, each naming the handed key once', () => {
    const m = parseKeyMapping(['lock:{key}', 'lock-signal:{key}'], 'hello keys', 'lock');
    expect(m.map('lock:{ns:k}')).toEqual(['lock:lock:{ns:k}', 'lock-signal:lock:{ns:k}']);
    expect(m.description).toBe('keys "lock:{key}", "lock-signal:{key}"');
    expect(() => parseKeyMapping([], 'k', 'lock')).toThrow('k: a list of key templates needs at least one');
    expect(() => parseKeyMapping(['lock:{key}{key}'], 'k', 'lock')).toThrow(/naming the key once as \{key\}/);
    expect(() => parseKeyMapping(['plain'], 'k', 'lock')).toThrow(/naming the key once/);
  });

  it('computed names: the handed key until the program was asked, then what it said, checked', () => {
    const m = parseKeyMapping({ computed: true }, 'hello keys', 'idempotency');
    expect(m.map('idem:{ns:k}')).toEqual(['idem:{ns:k}']);
    expect(m.knows?.('idem:{ns:k}')).toBe(false);
    m.learn!('idem:{ns:k}', ['f#idem:{ns:k}', 'idem:{ns:k}:lock']);
    expect(m.map('idem:{ns:k}')).toEqual(['f#idem:{ns:k}', 'idem:{ns:k}:lock']);
    expect(() => m.learn!('idem:{ns:j}', ['somewhere-else'])).toThrow(/does not contain the key handed over/);
    expect(() => parseKeyMapping({ computed: 'yes' }, 'hello keys', 'lock')).toThrow(
      'hello keys: expected { computed: true } alone',
    );
  });

  it('a module declares templates too, and a function for computed names (computed: true is for programs)', async () => {
    const store = { acquire: async () => true, release: async () => true, extend: async () => true };
    const caps = { acquire: 'boolean', release: 'boolean', extend: 'boolean' };
    const subject = await moduleSubject(
      lockModule(store, caps, ['{key}', '{key}:fence']),
      'x.mjs',
      PATTERNS.lock,
      {} as IORedisCluster,
      'ns',
    );
    expect(subject.storedKeys!('k')).toEqual(['lock:{ns:k}', 'lock:{ns:k}:fence']);
    await expect(
      moduleSubject(lockModule(store, caps, { computed: true }), 'x.mjs', PATTERNS.lock, {} as IORedisCluster, 'ns'),
    ).rejects.toThrow(/computed: true \} is for process programs/);
  });
});
