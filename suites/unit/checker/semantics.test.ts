/**
 * The checker's time semantics on a TTL register of our own (DESIGN.md, "The model and time"):
 * real-time order, expiry windows with eps, indeterminate and failed outcomes, key partitioning,
 * the search budget, and what an illegal key reports.
 */
import { describe, expect, it } from 'vitest';
import { check, overallVerdict } from '../../../src/checker/index.ts';
import type { KeyVerdict } from '../../../src/checker/index.ts';
import { leaseRegister } from './support/lease-register.ts';
import type { LeaseInput, LeaseOutput } from './support/lease-register.ts';
import { fault, history, keyVerdict, op } from './support/ops.ts';

const take = (who: string, ms = 1_000): LeaseInput => ({ op: 'take', who, ms });
const read: LeaseInput = { op: 'read' };
const drop = (who: string): LeaseInput => ({ op: 'drop', who });
const ok = (output: LeaseOutput) => ({ output });

const verdictOf = (ops: ReturnType<typeof op<LeaseInput, LeaseOutput>>[], options = {}) =>
  check(history(ops), leaseRegister, options).verdict;

describe('real-time order', () => {
  it('accepts a sequential history the model allows', () => {
    const ops = [
      op(1, take('a'), 0, 10, ok(1)),
      op(2, read, 20, 30, ok('a')),
      op(1, drop('a'), 40, 50, ok(1)),
      op(2, read, 60, 70, ok(null)),
    ];
    expect(verdictOf(ops)).toBe('ok');
  });

  it('rejects a read that saw a value before it was written', () => {
    expect(verdictOf([op(2, read, 0, 10, ok('a')), op(1, take('a'), 20, 30, ok(1))])).toBe('illegal');
  });

  it('accepts the same read when it overlaps the write', () => {
    expect(verdictOf([op(2, read, 0, 25, ok('a')), op(1, take('a'), 20, 30, ok(1))])).toBe('ok');
  });

  it('treats intervals as closed: touching operations may go either way', () => {
    expect(verdictOf([op(2, read, 0, 20, ok('a')), op(1, take('a'), 20, 30, ok(1))])).toBe('ok');
  });

  it('accepts concurrent takes of which one won, and rejects two winners', () => {
    expect(verdictOf([op(1, take('a'), 0, 50, ok(1)), op(2, take('b'), 10, 40, ok(0))])).toBe('ok');
    expect(verdictOf([op(1, take('a'), 0, 50, ok(1)), op(2, take('b'), 10, 40, ok(1))])).toBe('illegal');
  });
});

describe('expiry as a virtual operation', () => {
  // take at [0, 10] with a 100 ms lease: the lease ends somewhere in [75, 135] with eps 25.
  it('lets a new owner win inside the eps window before the nominal deadline', () => {
    expect(verdictOf([op(1, take('a', 100), 0, 10, ok(1)), op(2, take('b'), 80, 90, ok(1))])).toBe('ok');
  });

  it('rejects a new owner winning before the window opens', () => {
    expect(verdictOf([op(1, take('a', 100), 0, 10, ok(1)), op(2, take('b'), 60, 70, ok(1))])).toBe('illegal');
  });

  it('takes eps from the options', () => {
    const ops = [op(1, take('a', 100), 0, 10, ok(1)), op(2, take('b'), 80, 90, ok(1))];
    expect(verdictOf(ops, { eps: 0 })).toBe('illegal');
    expect(verdictOf(ops, { eps: 20 })).toBe('ok');
  });

  it('forces the lease to run out by the end of its window', () => {
    expect(verdictOf([op(1, take('a', 100), 0, 10, ok(1)), op(2, read, 200, 210, ok('a'))])).toBe('illegal');
    expect(verdictOf([op(1, take('a', 100), 0, 10, ok(1)), op(2, read, 200, 210, ok(null))])).toBe('ok');
  });

  it('never expires a lease before the operation that set it took effect', () => {
    // The 1 ms lease's window [-24, 76] opens before the take could have happened; placing the
    // expiry first would be a no-op and leave 'a' holding forever, explaining the late read.
    expect(verdictOf([op(1, take('a', 1), 0, 50, ok(1)), op(2, read, 200, 210, ok('a'))])).toBe('illegal');
  });

  it('lets a drop replace the lease so its expiry changes nothing', () => {
    const ops = [
      op(1, take('a', 100), 0, 10, ok(1)),
      op(1, drop('a'), 20, 30, ok(1)),
      op(2, take('b', 10_000), 40, 50, ok(1)),
      op(3, read, 500, 510, ok('b')),
    ];
    expect(verdictOf(ops)).toBe('ok');
  });
});

describe('indeterminate and failed outcomes', () => {
  it('accepts later reads consistent with an info op having applied, or not', () => {
    const applied = [op(1, take('a'), 0, 5, 'info'), op(2, read, 100, 110, ok('a'))];
    const notApplied = [op(1, take('a'), 0, 5, 'info'), op(2, read, 100, 110, ok(null))];
    expect(verdictOf(applied)).toBe('ok');
    expect(verdictOf(notApplied)).toBe('ok');
  });

  it('lets an info op take effect after the client gave up on it', () => {
    const ops = [op(1, take('a'), 0, 5, 'info'), op(2, read, 10, 20, ok(null)), op(2, read, 30, 40, ok('a'))];
    expect(verdictOf(ops)).toBe('ok');
  });

  it('never lets an info op take effect before its invocation', () => {
    expect(verdictOf([op(2, read, 0, 10, ok('a')), op(1, take('a'), 20, 25, 'info')])).toBe('illegal');
  });

  it('lets an info op apply at most once', () => {
    const ops = [
      op(1, take('a', 100), 0, 5, 'info'),
      op(2, read, 10, 20, ok('a')),
      op(2, read, 300, 310, ok(null)),
      op(2, read, 320, 330, ok('a')),
    ];
    expect(verdictOf(ops)).toBe('illegal');
  });

  it('drops fail ops: they never took effect', () => {
    expect(verdictOf([op(1, take('a'), 0, 5, 'fail'), op(2, read, 10, 20, ok(null))])).toBe('ok');
    expect(verdictOf([op(1, take('a'), 0, 5, 'fail'), op(2, read, 10, 20, ok('a'))])).toBe('illegal');
  });
});

describe('replication loss on the lease register', () => {
  it('remembers which states a path went through when a rollback is still to come', () => {
    // take(b), take(a), drop(a) are indeterminate. Ordered b first, the key never held 'a'; ordered
    // take(a), drop(a), take(b), it did. Both end with 'b' holding, but only the second lets the
    // lossy failover roll the key back to 'a' for the last read: the memo must tell them apart.
    const ops = [
      op(1, take('b'), 0, 5, 'info'),
      op(2, take('a'), 1, 5, 'info'),
      op(2, drop('a'), 2, 5, 'info'),
      op(3, read, 30, 40, ok('b')),
      op(3, read, 100, 110, ok('a')),
    ];
    const failover = fault('failover-force', 50, 60, true);
    expect(check(history(ops), leaseRegister).verdict).toBe('illegal');
    expect(check(history(ops, [failover]), leaseRegister).verdict).toBe('replication-loss');
  });
});

describe('keys', () => {
  it('checks keys independently', () => {
    const ops = [op(1, take('a'), 0, 50, ok(1), 'k1'), op(2, take('b'), 10, 40, ok(1), 'k2')];
    const result = check(history(ops), leaseRegister);
    expect(result.verdict).toBe('ok');
    expect(result.keys.map((k) => [k.key, k.verdict])).toEqual([
      ['k1', 'ok'],
      ['k2', 'ok'],
    ]);
  });

  it('reports only the illegal key as illegal', () => {
    const ops = [
      op(1, take('a'), 0, 10, ok(1), 'good'),
      op(1, take('a'), 0, 10, ok(1), 'bad'),
      op(2, take('b'), 20, 30, ok(1), 'bad'),
    ];
    const result = check(history(ops), leaseRegister);
    expect(result.verdict).toBe('illegal');
    expect(keyVerdict(result, 'good').verdict).toBe('ok');
    expect(keyVerdict(result, 'bad').verdict).toBe('illegal');
    expect(result.violations.map((v) => v.key)).toEqual(['bad']);
  });
});

describe('op ids', () => {
  // Ids are lease tags: a repeated one would let one op's expiry end another's lease.
  const withIds = (...ids: number[]) =>
    history(ids.map((id, i) => ({ ...op(1, take(`c${i}`), i * 10, i * 10 + 5, ok(1), `k${i}`), id })));

  it('must be unique, small or large', () => {
    expect(() => check(withIds(3, 7, 3), leaseRegister)).toThrow(/op id 3 appears more than once/);
    expect(() => check(withIds(2 ** 40, 5, 2 ** 40), leaseRegister)).toThrow(
      /op id 1099511627776 appears more than once/,
    );
    expect(() => check(withIds(0.5, -1, 0.5), leaseRegister)).toThrow(/op id 0.5 appears more than once/);
  });

  it('may be any distinct numbers', () => {
    expect(check(withIds(0, 2 ** 40, -3, 0.5), leaseRegister).verdict).toBe('ok');
  });
});

describe('an illegal key', () => {
  it('names the longest linearizable prefix and the first unexplained op', () => {
    const first = op(1, take('a'), 0, 10, ok(1));
    const second = op(2, read, 20, 30, ok('a'));
    const stale = op(3, read, 40, 50, ok(null));
    const result = check(history([first, second, stale]), leaseRegister);
    const key = keyVerdict(result);
    expect(key.verdict).toBe('illegal');
    expect(key.longestPrefix).toEqual([first.id, second.id]);
    expect(key.unexplained).toBe(stale.id);
  });

  it('falls back to model-conformance for a model without a classifier', () => {
    const stale = op(3, read, 40, 50, ok(null));
    const result = check(history([op(1, take('a'), 0, 10, ok(1)), stale]), leaseRegister);
    expect(result.violations).toHaveLength(1);
    expect(result.violations[0].invariant).toBe('model-conformance');
    expect(result.violations[0].witness.map((o) => o.id)).toContain(stale.id);
    expect(result.violations[0].message).toContain('client 3');
  });

  it('produces a result that survives a JSON round trip unchanged', () => {
    const ops = [op(1, take('a'), 0, 10, ok(1)), op(2, take('b'), 20, 30, ok(1)), op(3, read, 5, 50, 'info')];
    const result = check(history(ops), leaseRegister);
    expect(result.verdict).toBe('illegal');
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe('search budget', () => {
  // Ten overlapping answered drops that change nothing (nobody holds the key) leave 2^10 subsets
  // of them, each its own configuration, to try before the final impossible read (a holder nobody
  // ever asked for) can be declared unexplainable. (Indeterminate takes and drops no longer do:
  // a take dropped again is a detour back to the same state, and pruned.)
  const crowd = Array.from({ length: 10 }, (_, i) => op(i, drop(`c${i}`), i, 1_000, ok(0)));
  const impossible = op(99, read, 2_000, 2_010, ok('nobody'));

  it('turns an exhausted budget into unknown, never ok', () => {
    const result = check(history([...crowd, impossible]), leaseRegister, { budget: 50 });
    expect(keyVerdict(result).verdict).toBe('unknown');
    expect(result.verdict).toBe('unknown');
    expect(keyVerdict(result).note).toMatch(/budget/);
  });

  it('lets the relaxed search decide a key the strict one could not, when a lossy fault explains it', () => {
    // a took the key and dropped it; after the crowd and a lossy fault, a read still sees a. Proving
    // that illegal as recorded means trying every subset of the crowd; the rollback explains it at once.
    const ops = [
      op(1, take('a', 10_000), 0, 5, ok(1)),
      op(1, drop('a'), 10, 15, ok(1)),
      ...crowd.map((o) => ({ ...o, invokedAt: o.invokedAt + 20 })),
      op(2, read, 2_000, 2_010, ok('a')),
    ];
    const lossy = fault('failover-force', 1_500, 1_600, true);
    const strictAlone = check(history(ops), leaseRegister, { budget: 300, minimise: false });
    expect(keyVerdict(strictAlone).verdict).toBe('unknown');
    const result = check(history(ops, [lossy]), leaseRegister, { budget: 300, minimise: false });
    expect(keyVerdict(result).verdict).toBe('replication-loss');
    // The strict search spent its whole budget before the rollback explained it, in one scan order:
    // a's 10 s lease cannot run out before the read's answer (2,010 ms), so it has no expiry entry,
    // and with no info op nor bounded expiry left the second order would scan as the first (ordersDiffer).
    expect(keyVerdict(result).note).toMatch(
      /undecided after 30\d states \(state budget of 300\) without rollbacks; explained with replication loss/,
    );
    expect(result.replicationLosses.map((loss) => loss.faults.map((f) => f.id))).toEqual([[lossy.id]]);
  });

  it('reaches the verdict when the budget allows', () => {
    const result = check(history([...crowd, impossible]), leaseRegister, { minimise: false });
    expect(result.verdict).toBe('illegal');
    expect(result.stats.statesExplored).toBeGreaterThan(50);
  });
});

describe('overall verdict', () => {
  const key = (verdict: KeyVerdict['verdict']): KeyVerdict => ({ key: verdict, verdict, ops: 1, statesExplored: 1 });
  it('ranks illegal over unknown over replication-loss over ok', () => {
    expect(overallVerdict([key('ok'), key('replication-loss'), key('unknown'), key('illegal')])).toBe('illegal');
    expect(overallVerdict([key('ok'), key('replication-loss'), key('unknown')])).toBe('unknown');
    expect(overallVerdict([key('ok'), key('replication-loss')])).toBe('replication-loss');
    expect(overallVerdict([key('ok')])).toBe('ok');
    expect(overallVerdict([])).toBe('ok');
  });
});
