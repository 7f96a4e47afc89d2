import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;
const op = (id: number, client: number, input: IdempotencyInput, at: number, output: IdempotencyOutput): Op => ({
  type: 'op',
  id,
  client,
  key: 'k',
  input,
  invokedAt: at,
  completedAt: at + 5,
  outcome: 'ok',
  output,
});
const register = (owner: string) => ({ op: 'register', fingerprint: 'f', owner, leaseMs: 60_000 }) as const;

/**
 * The shape of a split brain (suites/chaos/netns-split-brain.full.test.ts records a real one): during a
 * partition the isolated master acknowledges writes the promoted replica never sees; the old master's
 * branch is discarded when it rejoins. Here the old master takes a register and a complete (its
 * branch), the new master later answers another owner fresh.
 */
function splitBrain(lossy: boolean): History<IdempotencyInput, IdempotencyOutput> {
  const partition: FaultRecord = {
    type: 'fault',
    id: 100,
    kind: 'partition',
    target: 'n1 | n0,n2,n3,n4,n5',
    startedAt: 0,
    endedAt: 9_000,
    lossy,
    detail: 'partition (one)',
  };
  return {
    ops: [
      op(0, 0, register('a'), 500, ['fresh']),
      op(1, 0, { op: 'complete', owner: 'a', status: '200', body: 'ok', ttlMs: 60_000 }, 700, 1),
      op(2, 1, register('b'), 5_000, ['fresh']),
      op(3, 1, { op: 'complete', owner: 'b', status: '201', body: 'other', ttlMs: 60_000 }, 5_200, 1),
      op(4, 2, register('c'), 12_000, ['hit', 'completed', 'f', '201', 'other']),
    ],
    faults: [partition],
    topology: [],
  };
}

describe('a split brain is replication loss, and only when the partition failed a shard over', () => {
  it('lossy partition: the discarded branch (register and complete of owner a) is replication loss, not a violation', () => {
    const result = check(splitBrain(true), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
    expect(result.replicationLosses[0].message).toMatch(
      /partition on n1 .* rolled the key back from completed\(.*\) to absent/,
    );
  });

  it('a partition that changed no master cannot lose a write: the same history is illegal', () => {
    const result = check(splitBrain(false), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('no-resurrection');
  });

  it('a real bug after the heal is still caught: a stale owner completes over the surviving record', () => {
    const history = splitBrain(true);
    const stale = op(5, 0, { op: 'complete', owner: 'a', status: '500', body: 'stale', ttlMs: 60_000 }, 13_000, 1);
    const result = check({ ...history, ops: [...history.ops, stale] }, PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].witness.map((o) => o.id)).toContain(5);
  });
});
