/**
 * A server clock the harness moved may end a lease early or late by the change of its offset. A key
 * illegal as recorded but legal with expiry windows widened by the offsets the clock faults recorded
 * is clock-loss, reported apart from violations; without a clock fault, or with one too small or
 * outside the key's operations, the same history stays illegal.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { clockSlackMs } from '../../../src/checker/clock-loss.ts';
import type { FaultRecord, OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { fault, history, keyVerdict, op } from './support/ops.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;

const register = (client: number, owner: string, at: [number, number], output: IdempotencyOutput): Op =>
  op(client, { op: 'register', fingerprint: 'fp', owner, leaseMs: 1_000 }, at[0], at[1], { output });

/** A took the key for 1 s; B took it 300 ms later: legal only if A's lease ended 700 ms early. */
const early = (): Op[] => [register(1, 'A', [0, 10], ['fresh']), register(2, 'B', [300, 310], ['fresh'])];
/** A took the key for 1 s; 2 s later B still finds A's record: legal only if it ended a second late. */
const late = (): Op[] => [
  register(1, 'A', [0, 10], ['fresh']),
  register(2, 'B', [2_000, 2_010], ['hit', 'pending', 'fp', '', '']),
];

function clockFault(kind: FaultRecord['kind'], from: number, to: number, offsets: number[]): FaultRecord {
  return {
    ...fault(kind, from, to, false),
    clockOffsets: offsets.map((offsetMs, i) => ({ at: from + i, node: 'n1', offsetMs })),
  };
}

describe('clock loss', () => {
  it('explains a lease that ended early on a clock stepped forward', () => {
    const jump = clockFault('clock-jump', 100, 400, [1_000]);
    const result = check(history(early(), [jump]), PATTERNS.idempotency);
    expect(result.verdict).toBe('clock-loss');
    expect(result.violations).toEqual([]);
    expect(result.clockLosses).toHaveLength(1);
    expect(result.clockLosses![0].invariant).toBe('one-winner');
    expect(result.clockLosses![0].faults.map((f) => f.id)).toEqual([jump.id]);
    expect(keyVerdict(result).note).toContain("n1's clock stepped +1000 ms");
    expect(keyVerdict(result).note).toContain('up to 1000 ms early or late');
  });

  it('explains a lease that outlived its end on a clock stepped back', () => {
    expect(check(history(late(), [clockFault('clock-jump', 100, 2_100, [-1_500])]), PATTERNS.idempotency).verdict).toBe(
      'clock-loss',
    );
  });

  it('keeps the history illegal with no clock fault, and names the invariant', () => {
    const result = check(history(early()), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('one-winner');
  });

  it('keeps it illegal when the clock moved less than the history needs', () => {
    expect(check(history(early(), [clockFault('clock-jump', 100, 400, [100])]), PATTERNS.idempotency).verdict).toBe(
      'illegal',
    );
  });

  it('widens only the leases a moved clock lived under: one set after the clock was set true again stays exact', () => {
    // A's lease (1 s, set at 0-10) lived through the jump at 100-400; C's, set at 3,000 after the
    // heal, never did. B at 300 is explained by A's lease ending early; D at 3,300 would need C's to.
    const ops: Op[] = [
      ...early(),
      register(3, 'C', [3_000, 3_010], ['fresh']),
      register(4, 'D', [3_300, 3_310], ['fresh']),
    ];
    const jump = clockFault('clock-jump', 100, 400, [1_000]);
    expect(check(history(ops.slice(0, 3), [jump]), PATTERNS.idempotency).verdict).toBe('clock-loss');
    const result = check(history(ops, [jump]), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('one-winner');
    // The same jump over C's lease too excuses it.
    const longer = clockFault('clock-jump', 100, 3_200, [1_000]);
    expect(check(history(ops, [longer]), PATTERNS.idempotency).verdict).toBe('clock-loss');
  });

  it('keeps it illegal when the clock fault ended before the key was touched', () => {
    expect(
      check(history(early(), [clockFault('clock-jump', -5_000, -4_000, [1_000])]), PATTERNS.idempotency).verdict,
    ).toBe('illegal');
  });

  it('never excuses an answer no lease timing explains (a fresh register while the key was completed)', () => {
    const ops: Op[] = [
      register(1, 'A', [0, 10], ['fresh']),
      op(1, { op: 'complete', owner: 'A', status: '201', body: 'b', ttlMs: 86_400_000 }, 20, 30, { output: 1 }),
      register(2, 'B', [100, 110], ['fresh']),
    ];
    expect(check(history(ops, [clockFault('clock-jump', 0, 200, [5_000])]), PATTERNS.idempotency).verdict).toBe(
      'illegal',
    );
  });

  it('explains a GCRA refusal a clock stepped back gave on its own (the arrival time looks later), and only while the step can be felt', () => {
    // Two of three places taken at 6 ms; the master's clock steps back 1 s at 130 ms; a hit at 133 ms is refused.
    const hit = { op: 'hit', burst: 3, rate: 5, periodMs: 1000 } as const;
    const gcraOps = [
      op(6, hit, 6, 7, { output: 1 }),
      op(5, hit, 20, 21, { output: 1 }),
      op(0, hit, 132, 133, { output: 0 }),
    ];
    expect(check(history(gcraOps), PATTERNS.gcra).verdict).toBe('illegal');
    expect(check(history(gcraOps, [clockFault('clock-jump', 130, 2_130, [-1_000])]), PATTERNS.gcra).verdict).toBe(
      'clock-loss',
    );
    // A step long healed, and its leases long run out, explains nothing.
    expect(check(history(gcraOps, [clockFault('clock-jump', -9_000, -8_000, [-1_000])]), PATTERNS.gcra).verdict).toBe(
      'illegal',
    );
    // An allowed hit the places leave no room for is never a refusal to leave out.
    const fourth = [...gcraOps.slice(0, 2), op(1, hit, 22, 23, { output: 1 }), op(0, hit, 24, 25, { output: 1 })];
    expect(check(history(fourth, [clockFault('clock-jump', 0, 2_000, [-100])]), PATTERNS.gcra).verdict).toBe('illegal');
  });

  it('widens by the spread of every offset, true included: a strobe between +1000 and 0, a drift that reached -600', () => {
    expect(clockSlackMs([clockFault('clock-strobe', 0, 10, [1_000, 0, 1_000, 0])])).toBe(1_000);
    expect(clockSlackMs([clockFault('clock-drift', 0, 10, [0, -600])])).toBe(600);
    expect(clockSlackMs([clockFault('clock-jump', 0, 10, [1_000]), clockFault('clock-jump', 20, 30, [-5_000])])).toBe(
      6_000,
    );
    expect(clockSlackMs([fault('failover-default', 0, 10, false)])).toBe(0);
  });
});
