/** The generic models `chaoslua check` offers beside the Redis patterns. */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { kv, register } from '../../../src/model/index.ts';
import { models } from '../../../src/patterns/models.ts';
import { checkableModels } from '../../../src/patterns/checkable.ts';
import type { KvInput, KvOutput, RegisterInput, RegisterOutput } from '../../../src/model/index.ts';
import { history, op } from '../checker/support/ops.ts';

describe('register', () => {
  it('reads nil until written, then the last value; cas swaps only on a match', () => {
    let s = register.init();
    expect(register.step(s, { op: 'read' }, 1).output).toEqual({ read: null });
    s = register.step(s, { op: 'write', value: 3 }, 2).state;
    expect(register.step(s, { op: 'cas', from: 4, to: 5 }, 3)).toEqual({ state: 3, output: { cas: false } });
    expect(register.step(s, { op: 'cas', from: 3, to: 5 }, 4)).toEqual({ state: 5, output: { cas: true } });
  });

  it('compares observed outputs as clients record them: values, nil, booleans; a write answers anything', () => {
    expect(register.outputMatches({ read: 3 }, 3)).toBe(true);
    expect(register.outputMatches({ read: 3 }, '3')).toBe(false);
    expect(register.outputMatches({ read: null }, null)).toBe(true);
    expect(register.outputMatches({ read: null }, 0)).toBe(false);
    expect(register.outputMatches({ cas: false }, false)).toBe(true);
    expect(register.outputMatches({ cas: false }, true)).toBe(false);
    expect(register.outputMatches({ write: 3 }, 'ok')).toBe(true);
  });

  it('finds a stale read through the checker', () => {
    const ops = [
      op<RegisterInput, RegisterOutput>(1, { op: 'write', value: 1 }, 0, 10, { output: 1 as never }),
      op<RegisterInput, RegisterOutput>(2, { op: 'write', value: 2 }, 20, 30, { output: 2 as never }),
      op<RegisterInput, RegisterOutput>(1, { op: 'read' }, 40, 50, { output: 1 as never }),
    ];
    expect(check(history(ops), register).verdict).toBe('illegal');
  });
});

describe('kv', () => {
  it('appends to "" per key; a get of an untouched key may be recorded as nil', () => {
    let s = kv.init();
    s = kv.step(s, { op: 'append', value: 'a' }, 1).state;
    s = kv.step(s, { op: 'append', value: 'b' }, 2).state;
    expect(kv.step(s, { op: 'get' }, 3).output).toEqual({ get: 'ab' });
    expect(kv.step(s, { op: 'put', value: 'z' }, 4).state.text).toBe('z');
    expect(kv.outputMatches({ get: '' }, null)).toBe(true);
    expect(kv.outputMatches({ get: 'ab' }, 'a')).toBe(false);
  });

  it('checks keys apart: an order that explains one key does not have to explain another', () => {
    const ops = [
      op<KvInput, KvOutput>(1, { op: 'append', value: 'x' }, 0, 10, { output: 'x' as never }, 'a'),
      op<KvInput, KvOutput>(2, { op: 'get' }, 20, 30, { output: 'x' as never }, 'a'),
      op<KvInput, KvOutput>(2, { op: 'get' }, 40, 50, { output: 'x' as never }, 'b'),
    ];
    const result = check(history(ops), kv);
    expect(result.keys.map((k) => [k.key, k.verdict])).toEqual([
      ['a', 'ok'],
      ['b', 'illegal'],
    ]);
  });
});

describe('the registries', () => {
  it('offer register and kv to check, but not to certify and run', () => {
    expect(Object.keys(checkableModels)).toEqual([
      'idempotency',
      'lock',
      'ratelimit',
      'semaphore',
      'gcra',
      'register',
      'kv',
    ]);
    expect(Object.keys(models)).toEqual(['idempotency', 'lock', 'ratelimit', 'semaphore', 'gcra']);
  });
});
