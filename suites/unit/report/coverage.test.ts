import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import { idempotency, lock } from '../../../src/patterns/models.ts';
import type { Model } from '../../../src/model/types.ts';
import type { Counterexample } from '../../../src/report/counterexample.ts';
import { coverage, mergeCoverage, NO_FAULT } from '../../../src/report/coverage.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { leaseWindows } from '../../../src/report/html/leases.ts';

const model = idempotency as unknown as Model<unknown, unknown, unknown>;
let nextId = 0;
function op(
  client: number,
  input: Record<string, unknown>,
  at: [number, number],
  output: unknown,
  outcome: OpRecord['outcome'] = 'ok',
): OpRecord {
  return {
    type: 'op',
    id: nextId++,
    client,
    key: 'k',
    input,
    invokedAt: at[0],
    completedAt: at[1],
    outcome,
    ...(outcome === 'ok' ? { output } : { error: 'timeout' }),
  };
}
const fault = (id: number, kind: FaultRecord['kind'], startedAt: number, endedAt: number): FaultRecord => ({
  type: 'fault',
  id,
  kind,
  target: 't',
  startedAt,
  endedAt,
  lossy: false,
  detail: '',
});
const reg = (owner: string, leaseMs = 100) => ({ op: 'register', fingerprint: 'fp', owner, leaseMs });

/**
 * One key through every transition of the idempotency store (ε = 25 ms, the checker's default):
 * expiries inferred both because a window had certainly passed and because only an expired key
 * explains a `fresh` answer.
 */
function story(): History {
  nextId = 0;
  const ops = [
    op(0, reg('o0'), [0, 2], ['fresh']), // absent → pending, no fault
    op(0, { op: 'renew', owner: 'o0', leaseMs: 100 }, [10, 12], 1), // renew, no fault
    // op1's lease ran out by 137 ms at the latest (during the freeze); c1 registers afresh.
    op(1, reg('o1'), [300, 302], ['fresh']),
    op(0, { op: 'complete', owner: 'o0', status: '200', body: 'x', ttlMs: 1000 }, [410, 412], 0), // stale: refused
    op(1, { op: 'complete', owner: 'o1', status: '200', body: 'y', ttlMs: 1000 }, [420, 422], 1), // pending → completed
    op(1, { op: 'release', owner: 'o1' }, [430, 432], 0), // completed: release refused
    op(0, reg('o2'), [2500, 2502], ['fresh']), // TTL of the complete certainly over; under a toxic
    op(0, { op: 'release', owner: 'o2' }, [2510, 2512], 1), // pending → absent by release, under the toxic
    op(1, reg('o3'), [2520, 2530], undefined, 'info'), // indeterminate: not replayed
    op(1, reg('o4'), [2600, 2602], ['fresh']),
    // Inside op 9's expiry window [2675, 2727]: only an expired lease explains `fresh`.
    op(0, reg('o5'), [2690, 2692], ['fresh']),
    op(1, reg('o6'), [2700, 2702], ['hit', 'pending', 'fp', '', '']), // o5's lease cannot have run out yet
  ];
  return { ops, faults: [fault(100, 'client-freeze', 50, 400), fault(101, 'toxic', 2490, 2590)], topology: [] };
}

const row = (t: ReturnType<typeof coverage>, name: string) => t.rows.find((r) => r.transition === name);

describe('coverage', () => {
  it('counts each transition under the faults active at the time', () => {
    const t = coverage(story(), model, PATTERNS.idempotency.transitions);
    expect(t.columns).toEqual([NO_FAULT, 'client-freeze', 'toxic']);
    expect(t.ops).toBe(11);
    expect(t.unexplained).toBe(0);
    expect(row(t, 'absent → pending by register')).toMatchObject({
      total: 5,
      counts: { [NO_FAULT]: 3, 'client-freeze': 1, toxic: 1 },
    });
    expect(row(t, 'pending → completed by complete')).toMatchObject({ total: 1, counts: { [NO_FAULT]: 1 } });
    expect(row(t, 'pending → absent by release')).toMatchObject({ total: 1, counts: { toxic: 1 } });
    expect(row(t, 'pending → absent by expiry')).toMatchObject({
      total: 2,
      counts: { 'client-freeze': 1, [NO_FAULT]: 1 },
    });
    expect(row(t, 'pending → pending by renew')).toMatchObject({ total: 1, counts: { [NO_FAULT]: 1 } });
    expect(row(t, 'completed → absent by expiry')).toMatchObject({ total: 1, counts: { [NO_FAULT]: 1 } });
    expect(row(t, 'pending → pending by complete (no change)')?.total).toBe(1);
    expect(row(t, 'completed → completed by release (no change)')?.total).toBe(1);
    expect(row(t, 'pending → pending by register (no change)')?.total).toBe(1);
    // The expected rows come first, in the seed's order.
    expect(t.rows.slice(0, 6).map((r) => r.transition)).toEqual(PATTERNS.idempotency.transitions);
  });

  it('does not invent an expiry the observations do not need', () => {
    nextId = 0;
    const h: History = {
      ops: [op(0, reg('a'), [0, 1], ['fresh']), op(1, reg('b'), [90, 91], ['hit', 'pending', 'fp', '', ''])],
      faults: [],
      topology: [],
    };
    const t = coverage(h, model, PATTERNS.idempotency.transitions);
    expect(row(t, 'pending → absent by expiry')?.total).toBe(0);
    expect(row(t, 'pending → pending by register (no change)')?.total).toBe(1);
  });

  it('counts an op no replay explains (two fresh registers within one lease) as unexplained', () => {
    nextId = 0;
    const h: History = {
      ops: [op(0, reg('a', 1000), [0, 1], ['fresh']), op(1, reg('b', 1000), [5, 6], ['fresh'])],
      faults: [],
      topology: [],
    };
    expect(coverage(h, model, PATTERNS.idempotency.transitions).unexplained).toBe(1);
  });

  it('shows every expected row of another pattern, exercised or not, and merges tables', () => {
    const l = lock as unknown as Model<unknown, unknown, unknown>;
    nextId = 0;
    const h: History = {
      ops: [
        op(0, { op: 'acquire', token: 't', ttlMs: 100 }, [0, 1], 1),
        op(0, { op: 'release', token: 't' }, [5, 6], 1),
      ],
      faults: [],
      topology: [],
    };
    const one = coverage(h, l, PATTERNS.lock.transitions);
    expect(one.rows.map((r) => [r.transition, r.total])).toEqual([
      ['absent → held by acquire', 1],
      ['held → absent by release', 1],
      ['held → absent by expiry', 0],
      ['held → held by extend', 0],
    ]);
    const both = mergeCoverage([one, one], PATTERNS.lock.transitions);
    expect(both?.histories).toBe(2);
    expect(both?.ops).toBe(4);
    expect(both?.rows[0]).toMatchObject({
      transition: 'absent → held by acquire',
      total: 2,
      counts: { [NO_FAULT]: 2 },
    });
    expect(mergeCoverage([])).toBeUndefined();
  });

  it('replays a real shrunk counterexample (suites/report/fixtures, a mutant without the owner check)', () => {
    const ce = JSON.parse(
      fs.readFileSync(
        new URL('../../report/fixtures/20261130-081012-run-7/counterexample.json', import.meta.url),
        'utf8',
      ),
    ) as Counterexample;
    const t = coverage(ce.history, model, PATTERNS.idempotency.transitions);
    // 8 acknowledged ops; the mutant's complete for a non-owner (op 3) is the one the model cannot explain.
    expect(t.ops).toBe(ce.history.ops.filter((o) => o.outcome === 'ok').length);
    expect(t.unexplained).toBeGreaterThanOrEqual(1);
    expect(t.columns).toContain('client-freeze');
    expect(row(t, 'absent → pending by register')?.total).toBe(1);
  });
});

describe('lease windows', () => {
  it('draws each expiry an op set, cut where a later op replaced it', () => {
    const windows = leaseWindows(story(), model, 'k', 25);
    const of = (id: number) => windows.find((w) => w.opId === id);
    expect(windows.map((w) => w.opId)).toEqual([0, 1, 2, 4, 6, 9, 10]);
    expect(of(0)).toMatchObject({ cutBy: 1, expired: false, ms: 100 });
    expect(of(1)).toMatchObject({ expired: true, certainUntil: 85, windowEnd: 137 });
    expect(of(2)).toMatchObject({ cutBy: 4 });
    expect(of(4)).toMatchObject({ expired: true, op: 'complete', ms: 1000 });
    expect(of(6)).toMatchObject({ cutBy: 7 });
    expect(of(9)).toMatchObject({ expired: true });
    expect(of(10)).toMatchObject({ expired: false, cutBy: undefined });
  });
});
