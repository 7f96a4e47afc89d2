/**
 * The clock-loss re-check against the brute-force oracle on tiny skewed histories: a clock fault whose
 * offsets spread by `slack` ms lets a lease end up to `slack` ms early or late, which is the oracle's
 * expiry window widened by `slack` on both sides. With a lossy fault beside it the order of verdicts
 * is strict (ok), rollbacks (replication-loss), rollbacks and widened windows (clock-loss), else illegal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, OpRecord } from '../../../src/history/types.ts';
import { leaseRegister } from './support/lease-register.ts';
import type { LeaseInput, LeaseOutput } from './support/lease-register.ts';
import { bruteForceLegal } from './support/oracle.ts';
import { history, tinyRecords } from './support/ops.ts';

const leaseInput: fc.Arbitrary<LeaseInput> = fc.oneof(
  fc.record({ op: fc.constant('take' as const), who: fc.constantFrom('a', 'b'), ms: fc.constantFrom(5, 30, 60) }),
  fc.constant({ op: 'read' as const }),
  fc.record({ op: fc.constant('drop' as const), who: fc.constantFrom('a', 'b') }),
);
const tinyOp = fc.record({
  input: leaseInput,
  output: fc.constantFrom<LeaseOutput>(0, 1, null, 'a', 'b'),
  invokedAt: fc.integer({ min: 0, max: 80 }),
  duration: fc.integer({ min: 0, max: 40 }),
  outcome: fc.constantFrom('ok', 'ok', 'ok', 'info', 'fail'),
});

/** A clock fault over the whole history whose offsets spread by `slack` (a forward step and back). */
const clockFault = (slack: number): FaultRecord => ({
  type: 'fault',
  id: 80,
  kind: 'clock-jump',
  target: 'n1',
  startedAt: 0,
  endedAt: 200,
  lossy: false,
  detail: '',
  clockOffsets: [{ at: 0, node: 'n1', offsetMs: slack }],
});

/** One answered operation of the lease register, 2 ms long, on key k: what both simulations record. */
const answered = (
  id: number,
  input: LeaseInput,
  at: number,
  output: LeaseOutput,
): OpRecord<LeaseInput, LeaseOutput> => ({
  type: 'op',
  id,
  client: id,
  key: 'k',
  input,
  invokedAt: at,
  completedAt: at + 2,
  outcome: 'ok',
  output,
});

describe('clock loss against a brute-force oracle', () => {
  it('is the verdict exactly when the oracle needs the widened windows', () => {
    fc.assert(
      fc.property(
        fc.array(tinyOp, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 10),
        fc.constantFrom(10, 25, 60),
        fc.option(
          fc.record({ startedAt: fc.integer({ min: 0, max: 120 }), duration: fc.integer({ min: 0, max: 40 }) }),
          { nil: undefined },
        ),
        (tiny, eps, slack, lossy) => {
          const ops: OpRecord<LeaseInput, LeaseOutput>[] = tinyRecords(tiny);
          const lossyFaults: FaultRecord[] = lossy
            ? [
                {
                  type: 'fault',
                  id: 90,
                  kind: 'failover-force',
                  target: 'n0',
                  startedAt: lossy.startedAt,
                  endedAt: lossy.startedAt + lossy.duration,
                  lossy: true,
                  detail: '',
                },
              ]
            : [];
          const strict = bruteForceLegal(leaseRegister, ops, eps);
          const rolledBack = lossyFaults.length > 0 && bruteForceLegal(leaseRegister, ops, eps, lossyFaults);
          const widened = bruteForceLegal(leaseRegister, ops, eps + slack, lossyFaults);
          const expected = strict ? 'ok' : rolledBack ? 'replication-loss' : widened ? 'clock-loss' : 'illegal';
          const result = check(history(ops, [...lossyFaults, clockFault(slack)]), leaseRegister, {
            eps,
            minimise: false,
          });
          expect(result.verdict).toBe(expected);
          expect((result.clockLosses ?? []).length > 0).toBe(expected === 'clock-loss');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('judges histories whose leases really ended early or late by a moved clock ok or clock-loss, never illegal, as the oracle does', () => {
    // One server whose clock moved by `shift` between each take and its lease's end: a sequential
    // history (each op a 2 ms interval, 5-25 ms apart) whose answers that clock decided.
    const step = fc.record({ input: leaseInput, gap: fc.integer({ min: 5, max: 25 }) });
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 6 }), fc.integer({ min: -40, max: 40 }), (steps, shift) => {
        let state = leaseRegister.init();
        let endsAt = Infinity;
        let at = 0;
        const ops: OpRecord<LeaseInput, LeaseOutput>[] = steps.map(({ input, gap }, id) => {
          at += gap;
          if (at + 1 >= endsAt) state = leaseRegister.expire(state, state.tag ?? -1);
          const next = leaseRegister.step(state, input, id);
          if (input.op === 'take' && next.state.tag === id) endsAt = at + 1 + input.ms - shift;
          state = next.state;
          return answered(id, input, at, next.output);
        });
        const slack = Math.abs(shift) + 2;
        const expected = bruteForceLegal(leaseRegister, ops, 0) ? 'ok' : 'clock-loss';
        expect(bruteForceLegal(leaseRegister, ops, slack)).toBe(true);
        const verdict = check(history(ops, [clockFault(slack)]), leaseRegister, { eps: 0, minimise: false }).verdict;
        expect(verdict).toBe(expected);
        seen.add(verdict);
      }),
      { numRuns: 400, seed: 5 },
    );
    // Not vacuous: some of those histories needed the moved clock.
    expect([...seen].sort()).toEqual(['clock-loss', 'ok']);
  });

  it('judges histories whose clock moved for part of the history only ok or clock-loss, never illegal', () => {
    // The server's clock reads `shift` ms off from `from` to `to` (then true again), as the clock
    // faults do. Redis keeps a lease as an instant of the clock that set it and ends it when the
    // clock reads past that instant, so a lease set or checked inside the window moves; the checker
    // widens only the leases that lived while the window was open (clock-loss.ts, leaseSlacks).
    const step = fc.record({ input: leaseInput, gap: fc.integer({ min: 5, max: 25 }) });
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 2, maxLength: 8 }),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 60 }),
        (steps, shift, from, length) => {
          const to = from + length;
          const clock = (t: number) => t + (t >= from && t <= to ? shift : 0);
          let state = leaseRegister.init();
          let expiresAt = Infinity; // on the server's clock
          let at = 0;
          const ops: OpRecord<LeaseInput, LeaseOutput>[] = steps.map(({ input, gap }, id) => {
            at += gap;
            const effect = at + 1;
            if (clock(effect) >= expiresAt) {
              state = leaseRegister.expire(state, state.tag ?? -1);
              expiresAt = Infinity;
            }
            const next = leaseRegister.step(state, input, id);
            if (input.op === 'take' && next.state.tag === id) expiresAt = clock(effect) + input.ms;
            state = next.state;
            return answered(id, input, at, next.output);
          });
          const fault: FaultRecord = {
            ...clockFault(Math.abs(shift)),
            startedAt: from,
            endedAt: to,
            clockOffsets: [{ at: from, node: 'n1', offsetMs: shift }],
          };
          const verdict = check(history(ops, [fault]), leaseRegister, { eps: 2, minimise: false }).verdict;
          expect(verdict === 'ok' || verdict === 'clock-loss', `verdict ${verdict}`).toBe(true);
          expect(verdict === 'ok').toBe(bruteForceLegal(leaseRegister, ops, 2));
          seen.add(verdict);
        },
      ),
      { numRuns: 1_000, seed: 7 },
    );
    expect([...seen].sort()).toEqual(['clock-loss', 'ok']);
  });
});
