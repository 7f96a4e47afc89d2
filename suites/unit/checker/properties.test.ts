/**
 * Properties over generated histories (zero false alarms, on histories from an independent
 * simulator of each pattern, is zero-false-alarms.test.ts):
 * - an output no state allows is never ok;
 * - a history with a real rollback inside a lossy fault is ok or replication-loss, never illegal;
 * - on tiny histories the verdict (ok / illegal / replication-loss) equals a brute-force oracle's,
 *   and the minimised sub-history is illegal, and (when the whole key is legal without the
 *   unexplained operation) legal without it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, linearHistory } from '../../../src/checker/index.ts';
import type { PlannedOp, PlannedOutcome } from '../../../src/checker/index.ts';
import type { FaultRecord, OpRecord } from '../../../src/history/types.ts';
import { idempotency } from '../../../src/patterns/models.ts';
import type { IdempotencyInput } from '../../../src/patterns/models.ts';
import { leaseRegister } from './support/lease-register.ts';
import type { LeaseInput, LeaseOutput } from './support/lease-register.ts';
import { lossyHistory } from './support/lossy-history.ts';
import { bruteForceLegal } from './support/oracle.ts';
import { verdictsByOrder } from './support/orders.ts';
import { history, keyVerdict, tinyRecords } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const owner = fc.constantFrom('A', 'B', 'C');
const idempotencyInput: fc.Arbitrary<IdempotencyInput> = fc.oneof(
  fc.record({
    op: fc.constant('register' as const),
    fingerprint: fc.constantFrom('f1', 'f2'),
    owner,
    leaseMs: fc.constantFrom(0, 1, 20, 50, 200, 5_000),
  }),
  fc.record({
    op: fc.constant('complete' as const),
    owner,
    status: fc.constantFrom('200', '201'),
    body: fc.constantFrom('x', 'y'),
    ttlMs: fc.constantFrom(30, 100, 10_000),
  }),
  fc.record({ op: fc.constant('release' as const), owner }),
  fc.record({ op: fc.constant('renew' as const), owner, leaseMs: fc.constantFrom(1, 20, 50, 200) }),
);
const leaseInput: fc.Arbitrary<LeaseInput> = fc.oneof(
  fc.record({ op: fc.constant('take' as const), who: fc.constantFrom('a', 'b'), ms: fc.constantFrom(5, 30, 1_000) }),
  fc.constant({ op: 'read' as const }),
  fc.record({ op: fc.constant('drop' as const), who: fc.constantFrom('a', 'b') }),
);
const outcome = fc.constantFrom<PlannedOutcome>('ok', 'ok', 'ok', 'ok', 'ok', 'info-applied', 'info-lost', 'fail');

/** Steps with instants 0–40 ms apart and intervals reaching up to 60 ms either side: heavy overlap. */
function plan<I>(input: fc.Arbitrary<I>, maxOps = 30): fc.Arbitrary<PlannedOp<I>[]> {
  const step = fc.record({
    key: fc.constantFrom('k1', 'k2'),
    client: fc.nat(3),
    input,
    gap: fc.integer({ min: 0, max: 40 }),
    leadMs: fc.integer({ min: 0, max: 60 }),
    lagMs: fc.integer({ min: 0, max: 60 }),
    outcome,
  });
  return fc.array(step, { maxLength: maxOps }).map((steps) => {
    let at = 0;
    return steps.map(({ gap, ...rest }) => ({ ...rest, at: (at += gap) }));
  });
}

describe('an impossible output', () => {
  it('is never ok, wherever it sits in the history', () => {
    fc.assert(
      fc.property(plan(idempotencyInput), fc.nat(), (planned, pick) => {
        const legal = linearHistory(idempotency, planned);
        const okOps = legal.ops.filter((op) => op.outcome === 'ok');
        fc.pre(okOps.length > 0);
        const victim = okOps[pick % okOps.length];
        const impossible = victim.input.op === 'register' ? ['bogus'] : 2;
        const ops = legal.ops.map((op) => (op === victim ? { ...op, output: impossible as never } : op));
        const result = check({ ...legal, ops }, PATTERNS.idempotency, { minimise: false });
        expect(result.verdict).toBe('illegal');
        expect(keyVerdict(result, victim.key).verdict).toBe('illegal');
      }),
      { numRuns: 150 },
    );
  });
});

describe('agreement with a brute-force oracle on tiny histories', () => {
  const tinyOp = fc.record({
    input: leaseInput,
    output: fc.constantFrom<LeaseOutput>(0, 1, null, 'a', 'b'),
    invokedAt: fc.integer({ min: 0, max: 80 }),
    duration: fc.integer({ min: 0, max: 40 }),
    outcome: fc.constantFrom('ok', 'ok', 'ok', 'info', 'fail'),
  });
  const tinyFaults = fc.array(
    fc.record({ startedAt: fc.integer({ min: 0, max: 120 }), duration: fc.integer({ min: 0, max: 40 }) }),
    {
      maxLength: 2,
    },
  );

  it('gives the verdict the oracle gives, and a sub-history the oracle confirms', () => {
    fc.assert(
      fc.property(
        fc.array(tinyOp, { minLength: 1, maxLength: 4 }),
        tinyFaults,
        fc.constantFrom(0, 10),
        (tiny, faultsAt, epsMs) => {
          const ops: OpRecord<LeaseInput, LeaseOutput>[] = tinyRecords(tiny);
          const faults: FaultRecord[] = faultsAt.map(({ startedAt, duration }, i) => ({
            type: 'fault',
            id: 90 + i,
            kind: 'failover-force',
            target: `node ${i}`,
            startedAt,
            endedAt: startedAt + duration,
            lossy: true,
            detail: '',
          }));
          const strict = bruteForceLegal(leaseRegister, ops, epsMs);
          const relaxed = faults.length > 0 && bruteForceLegal(leaseRegister, ops, epsMs, faults);
          const expected = strict ? 'ok' : relaxed ? 'replication-loss' : 'illegal';

          const result = check(history(ops, faults), leaseRegister, { eps: epsMs });
          expect(result.verdict).toBe(expected);
          // Each scan order alone agrees with the oracle, strict and with the lossy faults.
          const inEach = (legal: boolean) => (legal ? 'ok' : 'illegal');
          expect(verdictsByOrder(leaseRegister, ops, epsMs, [])).toEqual({
            call: inEach(strict),
            'answers-first': inEach(strict),
          });
          if (faults.length > 0)
            expect(verdictsByOrder(leaseRegister, ops, epsMs, [], faults)).toEqual({
              call: inEach(strict || relaxed),
              'answers-first': inEach(strict || relaxed),
            });
          if (expected !== 'illegal') return;
          const [violation] = result.violations;
          const unexplained = keyVerdict(result).unexplained;
          const without = (list: readonly OpRecord<LeaseInput, LeaseOutput>[]) =>
            list.filter((op) => op.id !== unexplained);
          expect(bruteForceLegal(leaseRegister, violation.subHistory, epsMs)).toBe(false);
          if (bruteForceLegal(leaseRegister, without(ops), epsMs)) {
            expect(bruteForceLegal(leaseRegister, without(violation.subHistory), epsMs)).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('histories with a real replication loss', () => {
  // Long leases and TTLs, so that a lost write shows in what later operations see.
  const durable: fc.Arbitrary<IdempotencyInput> = fc.oneof(
    fc.record({
      op: fc.constant('register' as const),
      fingerprint: fc.constantFrom('f1', 'f2'),
      owner,
      leaseMs: fc.constantFrom(50, 5_000),
    }),
    fc.record({
      op: fc.constant('complete' as const),
      owner,
      status: fc.constant('200'),
      body: fc.constantFrom('x', 'y'),
      ttlMs: fc.constant(10_000),
    }),
    fc.record({ op: fc.constant('release' as const), owner }),
  );
  const lossyPlan = fc.record({
    ops: fc
      .array(
        fc.record({ input: durable, gap: fc.integer({ min: 0, max: 40 }), leadMs: fc.nat(30), lagMs: fc.nat(30) }),
        { minLength: 2, maxLength: 6 },
      )
      .map((steps) => {
        let at = 0;
        return steps.map(({ gap, ...rest }) => ({ ...rest, at: (at += gap) }));
      }),
    fault: fc
      .record({ startedAt: fc.nat(100), duration: fc.nat(40) })
      .map(({ startedAt, duration }) => ({ startedAt, endedAt: startedAt + duration })),
    rollbackFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    rollbackTo: fc.nat(),
  });

  it('are never illegal, and are replication-loss exactly when the oracle needs the rollback', () => {
    fc.assert(
      fc.property(lossyPlan, (planned) => {
        const lossy = lossyHistory(idempotency, planned);
        const strict = bruteForceLegal(idempotency, lossy.ops, 25);
        const relaxed = bruteForceLegal(idempotency, lossy.ops, 25, lossy.faults);
        expect(relaxed).toBe(true);
        const result = check(lossy, PATTERNS.idempotency);
        expect(result.verdict).toBe(strict ? 'ok' : 'replication-loss');
      }),
      { numRuns: 400 },
    );
  });
});
