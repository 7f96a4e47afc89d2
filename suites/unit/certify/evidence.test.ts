import { describe, expect, it } from 'vitest';
import {
  evidenceFindings,
  judgeEvidence,
  minOkPerOperation,
  requiredTransitions,
  tallyOperations,
} from '../../../src/certify/evidence.ts';
import { FAULT_NAMES } from '../../../src/generator/index.ts';
import type { History, OpRecord, Outcome } from '../../../src/history/types.ts';
import { models } from '../../../src/patterns/models.ts';
import { coverage, mergeCoverage } from '../../../src/report/coverage.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

let nextId = 0;
const op = (key: string, input: Record<string, unknown>, at: number, outcome: Outcome, output?: unknown): OpRecord => ({
  type: 'op',
  id: nextId++,
  client: 0,
  key,
  input,
  invokedAt: at,
  completedAt: at + 1,
  outcome,
  ...(outcome === 'ok' ? { output } : { error: 'ERR not implemented' }),
});
const history = (ops: OpRecord[]): History => ({ ops, faults: [], topology: [] });

/** One key's lease lifecycle, every idempotency transition acknowledged once. */
function fullIdempotencyHistory(): History {
  return history([
    op('a', { op: 'register', fingerprint: 'f', owner: 'o1', leaseMs: 300 }, 0, 'ok', ['fresh']),
    op('a', { op: 'renew', owner: 'o1', leaseMs: 300 }, 10, 'ok', 1),
    op('a', { op: 'complete', owner: 'o1', status: '200', body: 'b', ttlMs: 800 }, 20, 'ok', 1),
    op('b', { op: 'register', fingerprint: 'f', owner: 'o2', leaseMs: 300 }, 0, 'ok', ['fresh']),
    op('b', { op: 'release', owner: 'o2' }, 10, 'ok', 1),
    op('c', { op: 'register', fingerprint: 'f', owner: 'o3', leaseMs: 100 }, 0, 'ok', ['fresh']),
    // Long after o3's lease: only its expiry explains a fresh register.
    op('c', { op: 'register', fingerprint: 'f', owner: 'o4', leaseMs: 100 }, 1_000, 'ok', ['fresh']),
  ]);
}

/** Evidence of judged runs, one history each. */
function judge(histories: History[], faults = [...FAULT_NAMES]) {
  const model = models.idempotency as Parameters<typeof coverage>[1];
  return judgeEvidence({
    pattern: PATTERNS.idempotency,
    faults,
    runs: histories.length,
    operations: tallyOperations(PATTERNS.idempotency, histories),
    coverage: mergeCoverage(
      histories.map((h) => coverage(h, model, PATTERNS.idempotency.transitions)),
      PATTERNS.idempotency.transitions,
    ),
  });
}

const without = (op: string) =>
  history(fullIdempotencyHistory().ops.filter((o) => (o.input as { op: string }).op !== op));
const runs = (n: number, make: (i: number) => History) => Array.from({ length: n }, (_, i) => make(i));

describe('evidence before a certificate', () => {
  it('an implementation that only answers errors: no operation succeeded, said with the counts', () => {
    const errors = history(
      Array.from({ length: 139 }, (_, i) =>
        op('k', { op: 'register', fingerprint: 'f', owner: `o${i}`, leaseMs: 300 }, i, i % 2 ? 'fail' : 'info'),
      ),
    );
    const evidence = judge([errors]);
    expect(evidence.operations.find((o) => o.op === 'register')).toEqual({
      op: 'register',
      issued: 139,
      ok: 0,
      fail: 69,
      info: 70,
    });
    expect(evidence.missing).toEqual(['no operation succeeded: 0 of 139 ok']);
    expect(evidenceFindings(evidence, 40)).toEqual(['evidence: no operation succeeded: 0 of 139 ok']);
  });

  it('the ok outcomes asked of each operation grow with the runs judged: one per four runs, at least one', () => {
    expect([1, 2, 4, 5, 40, 100].map(minOkPerOperation)).toEqual([1, 1, 1, 2, 10, 25]);
  });

  it('every operation acknowledged often enough and every transition witnessed: nothing missing', () => {
    const evidence = judge(runs(8, fullIdempotencyHistory));
    expect(evidence.operations.map((o) => o.ok)).toEqual([32, 8, 8, 8]);
    expect(Object.values(evidence.transitions).every((n) => n >= 8)).toBe(true);
    expect(evidence.missing).toEqual([]);
  });

  it('an operation acknowledged too rarely for the runs judged is named with its counts', () => {
    // 8 runs need 2 acknowledged renews; only the first run renewed.
    const evidence = judge(runs(8, (i) => (i === 0 ? fullIdempotencyHistory() : without('renew'))));
    expect(evidence.missing).toEqual([
      'renew succeeded 1 time of 1, fewer than the 2 a certificate of 8 runs needs (one per 4 runs)',
    ]);
  });

  it('a transition never witnessed is named, and a small budget says it may be the cause', () => {
    const evidence = judge(runs(1, () => without('complete')));
    expect(evidence.missing, evidence.missing.join('\n')).toEqual([
      'complete succeeded 0 times of 0, fewer than the 1 a certificate of 1 run needs (one per 4 runs)',
      'transition pending -> completed by complete never observed',
    ]);
    const findings = evidenceFindings(evidence, 1);
    expect(findings.every((f) => f.startsWith('evidence: ') && f.includes('a budget of 1 run may be too small'))).toBe(
      true,
    );
    expect(evidenceFindings(evidence, 40).some((f) => f.includes('budget'))).toBe(false);
  });

  it('expiry transitions are required only when the faults asked let sessions outlive a lease', () => {
    expect(requiredTransitions(PATTERNS.idempotency, [])).not.toContain('pending → absent by expiry');
    expect(requiredTransitions(PATTERNS.idempotency, ['lease-expiry'])).toContain('pending → absent by expiry');
    expect(requiredTransitions(PATTERNS.ratelimit, ['client-freeze'])).not.toContain('window → absent by expiry');
  });

  it('counts only the operations a client issued: what an implementation did inside another call is not asked of it', () => {
    const acquire = {
      type: 'op' as const,
      id: 1,
      client: 0,
      key: 'k',
      input: { op: 'acquire', token: 't', ttlMs: 250 },
      invokedAt: 0,
      completedAt: 5,
      outcome: 'info' as const,
      error: 'gave back inside the call',
    };
    const givenBack = { ...acquire, id: 2, input: { op: 'release', token: 't' }, insideOf: 1 };
    const [acquires, releases] = tallyOperations(PATTERNS.lock, [
      { ops: [acquire, givenBack], faults: [], topology: [] },
    ]);
    expect(acquires).toEqual({ op: 'acquire', issued: 1, ok: 0, fail: 0, info: 1 });
    expect(releases).toEqual({ op: 'release', issued: 0, ok: 0, fail: 0, info: 0 });
  });

  it('every required transition is one coverage.json reports', () => {
    for (const pattern of ['idempotency', 'lock', 'ratelimit'] as const) {
      for (const t of requiredTransitions(PATTERNS[pattern], [...FAULT_NAMES]))
        expect(PATTERNS[pattern].transitions).toContain(t);
    }
  });
});
