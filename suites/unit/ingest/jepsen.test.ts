/** Jepsen EDN histories: the reader, the pairing and the per-model reading of :value. */
import { describe, expect, it } from 'vitest';
import { readEdnForms, Keyword } from '../../../src/ingest/index.ts';
import { readHistory } from '../../../src/ingest/index.ts';
import { cli, tempFile } from './support.ts';

describe('the EDN reader', () => {
  it('reads maps, vectors, lists, sets, keywords, strings, numbers, nil and booleans', () => {
    const [{ value }] = readEdnForms('{:a [1 -2 3.5 "x\\"y"], :b (nil true false), :c #{:k}, "d" 1/2} ; comment');
    const map = value as Map<string, unknown>;
    expect(map.get('a')).toEqual([1, -2, 3.5, 'x"y']);
    expect(map.get('b')).toEqual([null, true, false]);
    expect(map.get('c')).toEqual([new Keyword('k')]);
    expect(map.get('d')).toBe(0.5);
  });

  it('gives each top-level form its line, skips #_ and reads a tagged record as its map', () => {
    const forms = readEdnForms('#_ {:skipped 1}\n{:a 1}\n\n#jepsen.history.Op{:b 2}\n');
    expect(forms.map((f) => f.line)).toEqual([2, 4]);
    expect((forms[1].value as Map<string, unknown>).get('b')).toBe(2);
  });

  it('refuses integers beyond 2^53 rather than reading them wrong', () => {
    expect(() => readEdnForms('{:a 9007199254740993}')).toThrow(/beyond 2\^53/);
  });
});

describe('Jepsen histories', () => {
  const file = 'history.edn';

  it('pairs invocations and completions by process, skips the nemesis, and uses :time when every op has it', () => {
    const text = [
      '{:index 0, :time 1000000, :type :invoke, :process 0, :f :write, :value 3}',
      '{:index 1, :time 1500000, :type :info, :process :nemesis, :f :start, :value nil}',
      '{:index 2, :time 2000000, :type :invoke, :process 1, :f :cas, :value [3 4]}',
      '{:index 3, :time 3000000, :type :ok, :process 0, :f :write, :value 3}',
      '{:index 4, :time 4000000, :type :fail, :process 1, :f :cas, :value [3 4]}',
      '{:index 5, :time 5000000, :type :invoke, :process 2, :f :read, :value nil}',
    ].join('\n');
    const { history } = readHistory(file, text, 'jepsen', 'register');
    expect(history.ops.map((op) => [op.client, op.outcome, op.invokedAt, op.completedAt])).toEqual([
      [0, 'ok', 1, 3],
      [1, 'fail', 2, 4],
      [2, 'info', 5, 5],
    ]);
    expect(history.ops[1].input).toEqual({ op: 'cas', from: 3, to: 4 });
  });

  it('reads a history written as one vector of maps', () => {
    const text =
      '[{:process 0, :type :invoke, :f :get, :key "a", :value nil}\n {:process 0, :type :ok, :f :get, :key "a", :value "x"}]';
    const { history } = readHistory(file, text, 'jepsen', 'kv');
    expect(history.ops).toHaveLength(1);
    expect(history.ops[0]).toMatchObject({ key: 'a', input: { op: 'get' }, output: 'x', outcome: 'ok' });
  });

  it('reads a Redis pattern operation from :f and an argument map', () => {
    const text = [
      '{:process 0, :type :invoke, :f :acquire, :key "lock:k", :value {:token "t1", :ttlMs 1000}, :time 0}',
      '{:process 0, :type :ok, :f :acquire, :key "lock:k", :value 1, :time 2000000}',
      '{:process 1, :type :invoke, :f :acquire, :key "lock:k", :value {:token "t2", :ttlMs 1000}, :time 3000000}',
      '{:process 1, :type :ok, :f :acquire, :key "lock:k", :value 1, :time 4000000}',
    ].join('\n');
    const { history } = readHistory(file, text, 'jepsen', 'lock');
    expect(history.ops[0].input).toEqual({ op: 'acquire', token: 't1', ttlMs: 1000 });
    expect(history.ops[1].invokedAt).toBe(3);
  });

  it('judges a lock history from Jepsen EDN with the lock invariants', async () => {
    const text = [
      '{:process 0, :type :invoke, :f :acquire, :key "lock:k", :value {:token "t1", :ttlMs 10000}, :time 0}',
      '{:process 0, :type :ok, :f :acquire, :key "lock:k", :value 1, :time 2000000}',
      '{:process 1, :type :invoke, :f :acquire, :key "lock:k", :value {:token "t2", :ttlMs 10000}, :time 3000000}',
      '{:process 1, :type :ok, :f :acquire, :key "lock:k", :value 1, :time 4000000}',
    ].join('\n');
    const { code, stdout } = await cli('check', tempFile('lock.edn', text), '--model', 'lock', '--no-report');
    expect(code).toBe(1);
    expect(stdout).toMatch(/one-holder violated on key "lock:k"/);
  });
});
