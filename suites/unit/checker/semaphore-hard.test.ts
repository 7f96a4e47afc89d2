/**
 * The semaphore's holder lookahead (Model.requires / grants / holdsIdentity in
 * src/patterns/semaphore/model.ts): a release or refresh answered 1 needs its token a live holder,
 * and only an acquire (answered 1 or never answered) makes one. It prunes only configurations with
 * no completion, so the checker still gives the brute-force oracle's verdict on tiny histories with
 * cuts and lossy faults; and the soak's undecided key (90 operations, 17 acquires left unanswered by
 * a killed master, 23 possible second executions) is decided in a few hundred states.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { semaphore, type SemaphoreInput, type SemaphoreOutput } from '../../../src/patterns/semaphore/model.ts';
import { bruteForceLegal } from './support/oracle.ts';
import { verdictsByOrder } from './support/orders.ts';
import { buildKeyProblem } from '../../../src/checker/problem.ts';
import { MODEL_PRUNING, searchKey } from '../../../src/checker/search.ts';
import { history, keyVerdict, tinyRecords } from './support/ops.ts';

describe('agreement with a brute-force oracle on tiny semaphore histories with cuts and lossy faults', () => {
  const token = fc.constantFrom('a', 'b', 'c');
  const input = fc.oneof(
    fc.record({ op: fc.constant('acquire' as const), token, limit: fc.constant(2), ttlMs: fc.constantFrom(20, 50) }),
    fc.record({ op: fc.constant('release' as const), token }),
    fc.record({ op: fc.constant('refresh' as const), token, ttlMs: fc.constantFrom(20, 50) }),
  );
  const tinyOp = fc.record({
    input: input as fc.Arbitrary<SemaphoreInput>,
    output: fc.constantFrom<SemaphoreOutput>(1, 1, 0),
    invokedAt: fc.integer({ min: 0, max: 120 }),
    duration: fc.integer({ min: 0, max: 15 }),
    outcome: fc.constantFrom('ok', 'ok', 'info', 'fail'),
  });
  const faults = fc
    .array(
      fc.record({
        startedAt: fc.integer({ min: 0, max: 120 }),
        duration: fc.integer({ min: 0, max: 50 }),
        lossy: fc.boolean(),
        cuts: fc.boolean(),
      }),
      { maxLength: 2 },
    )
    .map((drawn) =>
      drawn.map(
        ({ startedAt, duration, lossy, cuts }, i): FaultRecord => ({
          type: 'fault',
          id: 900 + i,
          kind: lossy ? 'failover-force' : 'toxic',
          target: `node ${i}`,
          startedAt,
          endedAt: startedAt + duration,
          lossy,
          cutsConnections: cuts,
          detail: '',
        }),
      ),
    );

  it('gives the verdict the oracle gives', () => {
    fc.assert(
      fc.property(
        fc.array(tinyOp, { minLength: 1, maxLength: 5 }),
        faults,
        fc.constantFrom(0, 5),
        (tiny, drawn, epsMs) => {
          const ops: OpRecord<SemaphoreInput, SemaphoreOutput>[] = tinyRecords(tiny);
          const lossy = drawn.filter((f) => f.lossy);
          const cuts = drawn.filter((f) => f.cutsConnections);
          const strict = bruteForceLegal(semaphore, ops, epsMs, [], cuts);
          const relaxed = !strict && lossy.length > 0 && bruteForceLegal(semaphore, ops, epsMs, lossy, cuts);
          const expected = strict ? 'ok' : relaxed ? 'replication-loss' : 'illegal';
          expect(check(history(ops, drawn), PATTERNS.semaphore, { eps: epsMs, minimise: false }).verdict).toBe(
            expected,
          );
          // Each scan order alone gives the oracle's verdict too, strict and with the lossy faults.
          expect(verdictsByOrder(PATTERNS.semaphore, ops, epsMs, cuts)).toEqual({
            call: strict ? 'ok' : 'illegal',
            'answers-first': strict ? 'ok' : 'illegal',
          });
          if (lossy.length > 0) {
            const withLoss = strict || bruteForceLegal(semaphore, ops, epsMs, lossy, cuts) ? 'ok' : 'illegal';
            expect(verdictsByOrder(PATTERNS.semaphore, ops, epsMs, cuts, lossy)).toEqual({
              call: withLoss,
              'answers-first': withLoss,
            });
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("the soak's undecided semaphore key", () => {
  const fixture = new URL('./fixtures/semaphore-soak-seed20261204-draw232.json', import.meta.url);
  const { history: recorded } = JSON.parse(readFileSync(fixture, 'utf8')) as {
    history: History<SemaphoreInput, SemaphoreOutput>;
  };

  it('is decided, ok, within 1,000 states', () => {
    const result = check(recorded, PATTERNS.semaphore, { minimise: false });
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, recorded.ops[0].key).statesExplored).toBeLessThan(1_000);
  });

  it('is not trivially legal: unanswered acquires, second executions and answers that need a holder', () => {
    expect(recorded.ops.filter((o) => o.outcome === 'info').length).toBeGreaterThanOrEqual(15);
    expect(recorded.faults.some((f) => f.cutsConnections && f.lossy)).toBe(true);
    expect(
      recorded.ops.filter((o) => o.input.op !== 'acquire' && o.outcome === 'ok' && o.output === 1).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it('with a release answered 1 for a token nobody acquired, is illegal', () => {
    const victim = recorded.ops.findLast((o) => o.outcome === 'ok')!;
    const ops = recorded.ops.map((o) =>
      o === victim
        ? { ...o, input: { op: 'release' as const, token: 'a token nobody acquired' }, output: 1 as const }
        : o,
    );
    expect(check({ ...recorded, ops }, PATTERNS.semaphore, { minimise: false }).verdict).toBe('illegal');
  });
});

describe("the soak's second undecided semaphore key (seed 20261204)", () => {
  // 77 operations on k0: 27 info ops, two lossy kills that cut connections (26 possible second
  // executions), and an acquire answered 0 (full) at 4,457 ms that needs two leases set just before still live.
  const fixture = new URL('./fixtures/semaphore-soak-seed20261204-undecided.json', import.meta.url);
  const { history: recorded } = JSON.parse(readFileSync(fixture, 'utf8')) as {
    history: History<SemaphoreInput, SemaphoreOutput>;
  };
  const ops = recorded.ops.filter((o) => o.key.endsWith(':k0'));
  const cuts = recorded.faults.filter((f) => f.cutsConnections);
  const search = (order: 'call' | 'answers-first') =>
    searchKey(buildKeyProblem(semaphore, ops, 25, [], cuts), 100_000, false, Infinity, MODEL_PRUNING, [order]);

  // The soak met it undecided at 500,000 states in call order; 100,000 keep this file quick.
  it('is left undecided by the call order alone, and decided ok in a few hundred states answers first', () => {
    expect(search('call')).toMatchObject({ verdict: 'unknown', exhausted: 'states' });
    const answersFirst = search('answers-first');
    expect(answersFirst.verdict).toBe('ok');
    expect(answersFirst.explored).toBeLessThan(1_000);
  });

  it('is decided ok by check, which tries the second order after the first', () => {
    const result = check(recorded, PATTERNS.semaphore, { minimise: false, budget: 100_000 });
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, ops[0].key).statesExplored).toBeGreaterThan(100_000);
  });

  it('with a refresh answered 1 for a token nobody acquired, is illegal', () => {
    const victim = ops.findLast((o) => o.outcome === 'ok')!;
    const changed = recorded.ops.map((o) =>
      o === victim
        ? { ...o, input: { op: 'refresh' as const, token: 'a token nobody acquired', ttlMs: 250 }, output: 1 as const }
        : o,
    );
    expect(check({ ...recorded, ops: changed }, PATTERNS.semaphore, { minimise: false, budget: 100_000 }).verdict).toBe(
      'illegal',
    );
  });
});
