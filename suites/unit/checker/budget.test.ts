/**
 * Per key, the search has a budget in states and optionally in time; the verdict names which ran
 * out, and on which key. Every other key is still decided: one illegal or undecided key does not
 * stop the check (Porcupine stops at the first illegal one).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';
import { appendLog } from './support/append-log.ts';
import type { AppendInput, AppendOutput } from './support/append-log.ts';
import { history, keyVerdict, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

/** Eight appends in flight together and a read no order explains: over 100,000 states to refute. */
const slowKey = (key: string) => [
  ...[...'abcdefgh'].map((letter, i) =>
    op<AppendInput, AppendOutput>(i, { op: 'append', letter }, 0, 100, { output: 'ok' }, key),
  ),
  op<AppendInput, AppendOutput>(9, { op: 'read' }, 200, 210, { output: 'abcdefgz' }, key),
];
const quickKey = (key: string, read: string) => [
  op<AppendInput, AppendOutput>(1, { op: 'append', letter: 'a' }, 0, 10, { output: 'ok' }, key),
  op<AppendInput, AppendOutput>(2, { op: 'read' }, 20, 30, { output: read }, key),
];

describe('search budgets', () => {
  it('a key out of states is unknown, and its note names the key and the state budget', () => {
    const result = check(history([...slowKey('k9'), ...quickKey('k1', 'a')]), appendLog, { budget: 1_000 });
    expect(result.verdict).toBe('unknown');
    expect(keyVerdict(result, 'k9')).toMatchObject({
      verdict: 'unknown',
      note: expect.stringMatching(/^key k9 undecided after 1,001 states \(state budget of 1,000\)/),
    });
    expect(keyVerdict(result, 'k1').verdict).toBe('ok');
  });

  it('a key out of time is unknown, and its note names the key and the time budget', () => {
    // A budget far shorter than the first 256 states take: the first reading of the clock ends the search.
    const result = check(history([...slowKey('k9'), ...quickKey('k1', 'a')]), appendLog, { budgetMs: 1e-6 });
    expect(keyVerdict(result, 'k9')).toMatchObject({
      verdict: 'unknown',
      note: expect.stringMatching(/^key k9 undecided after 0.000001 ms \(time budget, 256 states\)/),
    });
    // A key decided within its first 256 states never reads the clock.
    expect(keyVerdict(result, 'k1').verdict).toBe('ok');
  });

  it('decides every key after an illegal one', () => {
    const acquire = (client: number, token: string, at: [number, number], output: LockOutput, key: string) =>
      op<LockInput, LockOutput>(client, { op: 'acquire', token, ttlMs: 10_000 }, at[0], at[1], { output }, key);
    const twoHolders = (key: string) => [acquire(1, 't1', [0, 10], 1, key), acquire(2, 't2', [20, 30], 1, key)];
    const oneHolder = (key: string) => [acquire(1, 't1', [0, 10], 1, key), acquire(2, 't2', [20, 30], 0, key)];
    const result = check(history([...twoHolders('a'), ...oneHolder('b'), ...twoHolders('c')]), PATTERNS.lock);
    expect(result.keys.map((k) => [k.key, k.verdict])).toEqual([
      ['a', 'illegal'],
      ['b', 'ok'],
      ['c', 'illegal'],
    ]);
    expect(result.violations.map((v) => v.key)).toEqual(['a', 'c']);
  });
});
