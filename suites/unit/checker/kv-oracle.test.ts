/**
 * The kv model's lookahead (a state no get still to come can observe is dropped) against the
 * brute-force oracle: on tiny kv histories with overlapping appends, puts, gets and info ops, the
 * checker's verdict equals the oracle's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import { kv } from '../../../src/model/index.ts';
import type { KvInput, KvOutput } from '../../../src/model/index.ts';
import { bruteForceLegal } from './support/oracle.ts';
import { history } from './support/ops.ts';

const input: fc.Arbitrary<KvInput> = fc.oneof(
  fc.constant({ op: 'get' as const }),
  fc.constant({ op: 'get' as const }),
  fc.record({ op: fc.constant('put' as const), value: fc.constantFrom('p', 'q') }),
  fc.record({ op: fc.constant('append' as const), value: fc.constantFrom('x', 'y') }),
  fc.record({ op: fc.constant('append' as const), value: fc.constantFrom('x', 'y') }),
);
/** Strings a few appends and puts can make, so that both verdicts are common. */
const observed = fc.constantFrom('', 'x', 'y', 'xy', 'yx', 'p', 'px', 'py', 'pxy', 'q', 'qx', 'xx', 'pyx');
const tinyOp = fc.record({
  input,
  observed,
  /** 0: a put or append whose client gave up (info), one in five. */
  infoRoll: fc.integer({ min: 0, max: 4 }),
  invokedAt: fc.integer({ min: 0, max: 40 }),
  duration: fc.integer({ min: 1, max: 30 }),
});

describe('kv verdicts on tiny histories equal the brute-force oracle', () => {
  it('ok or illegal exactly when the oracle says so', () => {
    const seen = { ok: 0, illegal: 0 };
    fc.assert(
      fc.property(fc.array(tinyOp, { minLength: 1, maxLength: 6 }), (tiny) => {
        const ops: OpRecord<KvInput, KvOutput>[] = tiny.map((t, id) => {
          const base = {
            type: 'op' as const,
            id,
            client: id,
            key: 'k',
            input: t.input,
            invokedAt: t.invokedAt,
            completedAt: t.invokedAt + t.duration,
          };
          if (t.input.op !== 'get' && t.infoRoll === 0)
            return { ...base, outcome: 'info' as const, error: 'timed out' };
          // As the readers record them: a get's output is the string it saw.
          const output = (t.input.op === 'get' ? t.observed : t.input.value) as unknown as KvOutput;
          return { ...base, outcome: 'ok' as const, output };
        });
        const expected = bruteForceLegal(kv, ops, 0) ? 'ok' : 'illegal';
        const result = check(history(ops), kv, { eps: 0, minimise: false });
        expect(result.verdict).toBe(expected);
        seen[expected]++;
      }),
      { numRuns: 1_500, seed: 20261201 },
    );
    // Both verdicts are exercised, so the comparison is not vacuous.
    expect(seen.ok).toBeGreaterThan(100);
    expect(seen.illegal).toBeGreaterThan(100);
  });
});
