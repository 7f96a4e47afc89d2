import { describe, expect, it } from 'vitest';
import { check, describeViolation } from '../../../src/checker/index.ts';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;
const op = (
  id: number,
  client: number,
  input: IdempotencyInput,
  at: number,
  output: IdempotencyOutput,
  acknowledgedReplicas?: number,
): Op => ({
  type: 'op',
  id,
  client,
  key: 'k',
  input,
  invokedAt: at,
  completedAt: at + 5,
  outcome: 'ok',
  output,
  ...(acknowledgedReplicas === undefined ? {} : { acknowledgedReplicas }),
});
const register = (owner: string) => ({ op: 'register', fingerprint: 'f', owner, leaseMs: 60_000 }) as const;
const complete = (owner: string, status: string) =>
  ({ op: 'complete', owner, status, body: status, ttlMs: 60_000 }) as const;

/**
 * A split brain (as in split-brain.test.ts): owner a registers and completes on the old master, which
 * a partition then cuts off; the majority promotes its replica, which answers owner b fresh, so a's
 * record is gone. `acked`: the replicas WAIT reported for a's two writes; `failedNodes`: what the
 * partition failed.
 */
function lostWrite(
  acked: number | undefined,
  failedNodes: number | undefined,
): History<IdempotencyInput, IdempotencyOutput> {
  const partition: FaultRecord = {
    type: 'fault',
    id: 100,
    kind: 'partition',
    target: 'n1 | n0,n2,n3,n4,n5',
    startedAt: 1_000,
    endedAt: 9_000,
    lossy: true,
    detail: 'partition (one)',
    ...(failedNodes === undefined ? {} : { failedNodes }),
  };
  return {
    ops: [
      op(0, 0, register('a'), 500, ['fresh'], acked),
      op(1, 0, complete('a', '200'), 700, 1, acked),
      op(2, 1, register('b'), 12_000, ['fresh'], acked),
    ],
    faults: [partition],
    topology: [],
  };
}

describe('lost-acknowledged-write: a write WAIT acknowledged on N replicas, lost when at most N nodes failed', () => {
  it('acknowledged on 1 replica, lost to a partition that failed 1 node: the violation, naming the lost write and the fault', () => {
    const result = check(lostWrite(1, 1), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.replicationLosses).toEqual([]);
    const [violation] = result.violations;
    expect(violation.invariant).toBe('lost-acknowledged-write');
    // The complete is the state that vanished (the register's pending record was overwritten by it).
    expect(violation.witness.map((o) => o.id)).toContain(1);
    expect(violation.message).toMatch(/acknowledged by WAIT on 1 replica/);
    expect(violation.message).toMatch(/partition on n1 .*fault 100.*failed 1 node/);
    // A counterexample shows what WAIT answered beside each operation.
    expect(describeViolation(violation)).toMatch(/op 1 .* -> 1 \(WAIT: 1 replica\)/);
  });

  it('not acknowledged by WAIT (no count recorded): replication loss, as before', () => {
    const result = check(lostWrite(undefined, 1), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
    expect(result.replicationLosses).toHaveLength(1);
  });

  it('WAIT answered 0 replicas: replication loss', () => {
    const result = check(lostWrite(0, 1), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
  });

  it('acknowledged on 1 replica but 2 nodes failed: replication loss', () => {
    const result = check(lostWrite(1, 2), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
  });

  it('a fault whose failed nodes are unknown (a master restarted without persistence) protects nothing: replication loss', () => {
    const result = check(lostWrite(1, undefined), PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
  });

  it('acknowledged on 2 replicas, 2 nodes failed: the violation', () => {
    expect(check(lostWrite(2, 2), PATTERNS.idempotency).violations.map((v) => v.invariant)).toEqual([
      'lost-acknowledged-write',
    ]);
  });

  it('an acknowledged write that the history does not need rolled back: ok, however many nodes failed', () => {
    const history = lostWrite(1, 1);
    // Owner b now finds a's completed record: nothing was lost.
    const kept = {
      ...history,
      ops: [...history.ops.slice(0, 2), op(2, 1, register('b'), 12_000, ['hit', 'completed', 'f', '200', '200'], 1)],
    };
    expect(check(kept, PATTERNS.idempotency).verdict).toBe('ok');
  });

  it('only the unacknowledged write is lost (the acknowledged one survives): replication loss, not the violation', () => {
    // a registers with WAIT 1 (acknowledged); its complete is not acknowledged (WAIT 0) and is lost:
    // the promoted replica still holds a's pending record, so b is answered a hit on pending.
    const partition: FaultRecord = {
      type: 'fault',
      id: 100,
      kind: 'partition',
      target: 'n1 | n0,n2,n3,n4,n5',
      startedAt: 1_000,
      endedAt: 9_000,
      lossy: true,
      detail: 'partition (one)',
      failedNodes: 1,
    };
    const history: History<IdempotencyInput, IdempotencyOutput> = {
      ops: [
        op(0, 0, register('a'), 500, ['fresh'], 1),
        op(1, 0, complete('a', '200'), 1_500, 1, 0),
        op(2, 1, register('b'), 8_000, ['hit', 'pending', 'f', '', ''], 1),
      ],
      faults: [partition],
      topology: [],
    };
    const result = check(history, PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
  });

  it("an acknowledged operation that wrote nothing (a hit) guards nothing: WAIT covers its own connection's writes, not what it read", () => {
    const history = lostWrite(undefined, 1);
    const hit = op(5, 2, register('c'), 900, ['hit', 'completed', 'f', '200', '200'], 1);
    const result = check({ ...history, ops: [...history.ops, hit] }, PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.violations).toEqual([]);
  });

  it('recorded on the netns backend: a completed record acknowledged on 1 replica, found absent after the failover, with connections cut (each op may have run twice): the violation', () => {
    // The shape of the mutant wait-claimed-not-sent's catch (seed 2): the partition cut connections, so
    // the complete may have run twice; its first execution must not stand in for the acknowledged one.
    const partition: FaultRecord = {
      type: 'fault',
      id: 27,
      kind: 'partition',
      target: 'n1 | n0,n2,n3,n4,n5',
      startedAt: 3.2,
      endedAt: 4_082.5,
      lossy: true,
      cutsConnections: true,
      failedNodes: 1,
      detail: 'partition (one)',
    };
    const at = (o: Op, invokedAt: number, completedAt: number): Op => ({ ...o, invokedAt, completedAt });
    const history: History<IdempotencyInput, IdempotencyOutput> = {
      ops: [
        at(op(6, 0, { ...register('c0a0'), leaseMs: 250 }, 0, ['fresh'], 1), 40, 42),
        at(op(9, 0, { ...complete('c0a0', '200'), ttlMs: 3_000 }, 0, 1, 1), 95.1, 96.4),
        at(op(23, 0, { ...register('c0a0'), leaseMs: 250 }, 0, ['fresh'], 1), 2_578.7, 2_734.7),
      ],
      faults: [partition],
      topology: [],
    };
    const result = check(history, PATTERNS.idempotency);
    expect(result.violations.map((v) => v.invariant)).toEqual(['lost-acknowledged-write']);
    expect(result.violations[0].witness.map((o) => o.id)).toEqual([9]);
    // Not acknowledged, the same history is replication loss.
    const plain = { ...history, ops: history.ops.map(({ acknowledgedReplicas: _, ...o }) => o) };
    expect(check(plain, PATTERNS.idempotency).verdict).toBe('replication-loss');
  });

  it('a real bug beside acknowledged writes is still named as itself', () => {
    // Two owners both answered fresh with no fault at all: one-winner, whatever WAIT said.
    const history: History<IdempotencyInput, IdempotencyOutput> = {
      ops: [op(0, 0, register('a'), 500, ['fresh'], 1), op(1, 1, register('b'), 700, ['fresh'], 1)],
      faults: [],
      topology: [],
    };
    expect(check(history, PATTERNS.idempotency).violations.map((v) => v.invariant)).toEqual(['one-winner']);
  });
});
