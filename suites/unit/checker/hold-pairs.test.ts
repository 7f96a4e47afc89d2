/**
 * Hold pairs (search/hold-pairs.ts, HoldPair): an answer that leaves holder H (a lock's acquire or extend
 * answered 1), then an answer invoked after it that requires no holder or another, with nothing
 * between that could end H's hold, is illegal at once; each way the hold can end between them keeps
 * the history legal. The brute-force agreement in polling-hard.test.ts covers random tiny histories;
 * these name each way the hold can end, so a candidate the pairs forgot fails here by name.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';
import { fault, history, keyVerdict, ok, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const acquire = (token: string, ttlMs = 1_000): LockInput => ({ op: 'acquire', token, ttlMs });
const release = (token: string): LockInput => ({ op: 'release', token });
const extend = (token: string, ttlMs: number): LockInput => ({ op: 'extend', token, ttlMs });

/**
 * The states the key took with no pruner at all. A strict search first tries without the holder
 * lookahead (search.ts, plainFirst), then with it; a key the hold pairs show illegal before any
 * order is tried takes exactly the first try's states, and no more.
 */
const unprunedStates = (ops: Parameters<typeof history>[0]) =>
  keyVerdict(check(history(ops), { ...PATTERNS.lock, pruning: [] }, { eps: 0, minimise: false })).statesExplored;

describe('hold pairs', () => {
  it('a second holder with nothing between that ends the first hold is illegal before any order is tried', () => {
    const first = op<LockInput, LockOutput>(1, acquire('a'), 0, 1, ok(1));
    const second = op<LockInput, LockOutput>(2, acquire('b'), 200, 201, ok(1));
    const result = check(history([first, second]), PATTERNS.lock, { eps: 0, minimise: false });
    expect(result.verdict).toBe('illegal');
    const key = keyVerdict(result);
    expect(key.unexplained).toBe(second.id);
    expect(key.statesExplored).toBe(unprunedStates([first, second]));
    expect(result.violations[0].invariant).toBe('one-holder');
  });

  it('an extend answered nil after the holder renewed, with the renewal still running, is illegal', () => {
    const ops = [
      op<LockInput, LockOutput>(1, acquire('a', 300), 0, 1, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', 1_000), 100, 101, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', 1_000), 500, 501, ok(null)),
    ];
    expect(check(history(ops), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('illegal');
  });

  it('an extend answered -1 (another token holds it) right after its own token acquired, its lease still running, is illegal at once', () => {
    const ops = [
      op<LockInput, LockOutput>(1, acquire('a'), 0, 1, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', 1_000), 100, 101, ok(-1)),
    ];
    const result = check(history(ops), PATTERNS.lock, { eps: 0, minimise: false });
    expect(result.verdict).toBe('illegal');
    expect(keyVerdict(result).statesExplored).toBe(unprunedStates(ops));
    // With another client's acquire possible after the lease ran out, it is legal.
    const later = [
      op<LockInput, LockOutput>(1, acquire('a', 50), 0, 1, ok(1)),
      op<LockInput, LockOutput>(2, acquire('b'), 60, 61, ok(1)),
      op<LockInput, LockOutput>(1, extend('a', 1_000), 100, 101, ok(-1)),
    ];
    expect(check(history(later), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('ok');
  });

  it('two acquires answered 1 whose windows overlap, neither lease able to run out in time, are illegal in either order', () => {
    const ops = [
      op<LockInput, LockOutput>(1, acquire('a'), 0, 400, ok(1)),
      op<LockInput, LockOutput>(2, acquire('b'), 200, 201, ok(1)),
    ];
    const result = check(history(ops), PATTERNS.lock, { eps: 0, minimise: false });
    expect(result.verdict).toBe('illegal');
    expect(keyVerdict(result).statesExplored).toBe(unprunedStates(ops));
  });

  it('two acquires answered 1 whose windows overlap are legal when one order lets the first lease run out', () => {
    // b at 200 with a 100 ms lease, then a by 400: b's lease may run out at 300.
    const ops = [
      op<LockInput, LockOutput>(1, acquire('a'), 0, 400, ok(1)),
      op<LockInput, LockOutput>(2, acquire('b', 100), 200, 201, ok(1)),
    ];
    expect(check(history(ops), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('ok');
  });

  const ends: [string, OpRecordsBetween][] = [
    ['a release answered 1', () => [op(1, release('a'), 100, 101, ok(1))]],
    ['a release left unanswered', () => [op(1, release('a'), 100, 101, 'info')]],
    ['an extend with TTL 0 (PEXPIRE 0 deletes the key)', () => [op(1, extend('a', 0), 100, 101, ok(1))]],
    ['the lease running out', () => []],
    ['a renewal whose lease runs out', () => [op(1, extend('a', 50), 100, 101, ok(1))]],
  ];
  for (const [how, between] of ends) {
    it(`the hold ending by ${how} keeps it legal`, () => {
      // Only the lease-running-out case gives the first acquire a TTL short enough to run out by the second.
      const ttl = how === 'the lease running out' ? 100 : 1_000;
      const ops = [
        op<LockInput, LockOutput>(1, acquire('a', ttl), 0, 1, ok(1)),
        ...between(),
        op<LockInput, LockOutput>(2, acquire('b'), 300, 301, ok(1)),
      ];
      expect(check(history(ops), PATTERNS.lock, { eps: 0, minimise: false }).verdict).toBe('ok');
    });
  }

  it('a lossy fault between the two explains it (replication-loss); one that ended before the first does not', () => {
    const ops = () => [
      op<LockInput, LockOutput>(1, acquire('a'), 100, 101, ok(1)),
      op<LockInput, LockOutput>(2, acquire('b'), 300, 301, ok(1)),
    ];
    expect(
      check(history(ops(), [fault('failover-force', 150, 250, true)]), PATTERNS.lock, { eps: 0, minimise: false })
        .verdict,
    ).toBe('replication-loss');
    expect(
      check(history(ops(), [fault('failover-force', 0, 50, true)]), PATTERNS.lock, { eps: 0, minimise: false }).verdict,
    ).toBe('illegal');
  });
});

type OpRecordsBetween = () => ReturnType<typeof op<LockInput, LockOutput>>[];
