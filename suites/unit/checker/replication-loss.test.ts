/**
 * A lossy fault (failover without handshake, restart without persistence) may roll a key back to
 * a prefix of its writes. A key explained only by such a rollback is replication-loss, reported
 * apart from violations; the same history with a lossless fault stays illegal.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { fault, history, keyVerdict, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;
const DAY = 86_400_000;

const register = (client: number, owner: string, at: [number, number], output: IdempotencyOutput, key = 'k'): Op =>
  op(client, { op: 'register', fingerprint: 'fp', owner, leaseMs: 60_000 }, at[0], at[1], { output }, key);
const complete = (client: number, owner: string, at: [number, number], output: IdempotencyOutput, key = 'k'): Op =>
  op(client, { op: 'complete', owner, status: '201', body: 'b', ttlMs: DAY }, at[0], at[1], { output }, key);

// A completed record, then (after the fault) a register that finds the key absent.
const lostCompletion = (key = 'k'): Op[] => [
  register(1, 'A', [0, 10], ['fresh'], key),
  complete(1, 'A', [20, 30], 1, key),
  register(2, 'B', [100, 110], ['fresh'], key),
];

describe('replication loss', () => {
  it('reports a history explained only by a lossy failover as replication-loss', () => {
    const failover = fault('failover-force', 40, 60, true);
    const result = check(history(lostCompletion(), [failover]), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
    expect(keyVerdict(result).verdict).toBe('replication-loss');
    expect(result.replicationLosses).toHaveLength(1);
    expect(result.replicationLosses[0].faults.map((f) => f.id)).toEqual([failover.id]);
    expect(result.replicationLosses[0].invariant).toBe('no-resurrection');
    expect(result.replicationLosses[0].message).toContain('failover-force');
  });

  it('keeps the same history illegal when the fault could not lose writes', () => {
    const result = check(history(lostCompletion(), [fault('failover-default', 40, 60, false)]), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.replicationLosses).toEqual([]);
    expect(result.violations[0].invariant).toBe('no-resurrection');
  });

  it('explains a loss of only the last write: the record reads as pending again', () => {
    const ops = [
      register(1, 'A', [0, 10], ['fresh']),
      complete(1, 'A', [20, 30], 1),
      register(2, 'B', [100, 110], ['hit', 'pending', 'fp', '', '']),
    ];
    expect(check(history(ops, [fault('failover-takeover', 40, 60, true)]), PATTERNS.idempotency).verdict).toBe(
      'replication-loss',
    );
  });

  it('does not let a fault that ended before the writes roll them back', () => {
    const early = fault('failover-force', -50, -40, true);
    expect(check(history(lostCompletion(), [early]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('does not let a fault that started after the contradicting read explain it', () => {
    const late = fault('kill-restart', 200, 300, true);
    expect(check(history(lostCompletion(), [late]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('does not explain a state no prefix of the writes ever held', () => {
    // "fp-X" was never written by anyone: no rollback can produce it.
    const ops = [
      register(1, 'A', [0, 10], ['fresh']),
      complete(1, 'A', [20, 30], 1),
      register(2, 'B', [100, 110], ['hit', 'pending', 'fp-X', '', '']),
    ];
    expect(check(history(ops, [fault('failover-force', 40, 60, true)]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('lets a promoted replica hold only a prefix: writes after the fault cannot be undone by it', () => {
    // The completion happens after the failover ended, so no rollback can remove it.
    const ops = [
      register(1, 'A', [0, 10], ['fresh']),
      complete(1, 'A', [100, 110], 1),
      register(2, 'B', [200, 210], ['fresh']),
    ];
    expect(check(history(ops, [fault('failover-force', 40, 60, true)]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('is unknown, not illegal, when the budget runs out during the re-check with faults', () => {
    const strictCost = keyVerdict(
      check(history(lostCompletion()), PATTERNS.idempotency, { minimise: false }),
    ).statesExplored;
    const failover = fault('failover-force', 40, 60, true);
    const result = check(history(lostCompletion(), [failover]), PATTERNS.idempotency, { budget: strictCost + 1 });
    expect(result.verdict).toBe('unknown');
    expect(keyVerdict(result).note).toContain(`lossy faults ${failover.id}`);
    expect(result.violations).toEqual([]);
  });

  it('ranks an illegal key above a replication-loss key overall', () => {
    const ops = [
      ...lostCompletion('lost'),
      register(1, 'A', [0, 30], ['fresh'], 'bad'),
      register(2, 'B', [10, 35], ['fresh'], 'bad'),
    ];
    const result = check(history(ops, [fault('failover-force', 40, 60, true)]), PATTERNS.idempotency);
    expect(keyVerdict(result, 'lost').verdict).toBe('replication-loss');
    expect(keyVerdict(result, 'bad').verdict).toBe('illegal');
    expect(result.verdict).toBe('illegal');
  });
});
