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
    .array(fc.record({ startedAt: fc.integer({ min: 0, max: 120 }), duration: fc.integer({ min: 0, max: 50 }), lossy: fc.boolean(), cuts: fc.boolean() }), { maxLength: 2 })
    .map((drawn) =>
      drawn.map(({ startedAt, duration, lossy, cuts }, i): FaultRecord => ({
        type: 'fault',
        id: 900 + i,
        kind: lossy ? 'failover-force' : 'toxic',
        target: `node ${i}`,
        startedAt,
        endedAt: startedAt + duration,
        lossy,
        cutsConnections: cuts,
        detail: '',
      })),
    );

  it('gives the verdict the oracle gives', () => {
    fc.assert(
      fc.property(fc.array(tinyOp, { minLength: 1, maxLength: 5 }), faults, fc.constantFrom(0, 5), (tiny, drawn, epsMs) => {
        const ops: OpRecord<SemaphoreInput, SemaphoreOutput>[] = tinyRecords(tiny);
        const lossy = drawn.filter((f) => f.lossy);
        const cuts = drawn.filter((f) => f.cutsConnections);
        const strict = bruteForceLegal(semaphore, ops, epsMs, [], cuts);
        const relaxed = !strict && lossy.length > 0 && bruteForceLegal(semaphore, ops, epsMs, lossy, cuts);
        const expected = strict ? 'ok' : relaxed ? 'replication-loss' : 'illegal';
        expect(check(history(ops, drawn), PATTERNS.semaphore, { eps: epsMs, minimise: false }).verdict).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe("the soak's undecided semaphore key", () => {
  const fixture = new URL('./fixtures/semaphore-soak-seed20261204-draw232.json', import.meta.url);
  const { history: recorded } = JSON.parse(readFileSync(fixture, 'utf8')) as { history: History<SemaphoreInput, SemaphoreOutput> };

  it('is decided, ok, within 1,000 states', () => {
    const result = check(recorded, PATTERNS.semaphore, { minimise: false });
    expect(result.verdict).toBe('ok');
    expect(keyVerdict(result, recorded.ops[0].key).statesExplored).toBeLessThan(1_000);
  });

  it('is not trivially legal: unanswered acquires, second executions and answers that need a holder', () => {
    expect(recorded.ops.filter((o) => o.outcome === 'info').length).toBeGreaterThanOrEqual(15);
    expect(recorded.faults.some((f) => f.cutsConnections && f.lossy)).toBe(true);
    expect(recorded.ops.filter((o) => o.input.op !== 'acquire' && o.outcome === 'ok' && o.output === 1).length).toBeGreaterThanOrEqual(5);
  });

  it('with a release answered 1 for a token nobody acquired, is illegal', () => {
    const victim = recorded.ops.findLast((o) => o.outcome === 'ok')!;
    const ops = recorded.ops.map((o) => (o === victim ? { ...o, input: { op: 'release' as const, token: 'a token nobody acquired' }, output: 1 as const } : o));
    expect(check({ ...recorded, ops }, PATTERNS.semaphore, { minimise: false }).verdict).toBe('illegal');
  });
});
