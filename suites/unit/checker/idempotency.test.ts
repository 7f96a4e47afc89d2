/**
 * The idempotency store's histories (the store's contracts, src/patterns/idempotency/model.ts): legal ones
 * that look suspicious must pass, and each named invariant must be reported by name, with its
 * witnesses and a sentence naming clients, key and times.
 */
import { describe, expect, it } from 'vitest';
import { check, describeViolation } from '../../../src/checker/index.ts';
import type { CheckResult } from '../../../src/checker/index.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { history, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;
type Result = { output: IdempotencyOutput } | 'info' | 'fail';

const KEY = 'idem:v1:{cred_7:POST/v1/charges:k1}';
const DAY = 86_400_000;

const register = (
  client: number,
  owner: string,
  at: [number, number],
  result: Result,
  leaseMs = 60_000,
  fingerprint = 'fp-1',
): Op => op(client, { op: 'register', fingerprint, owner, leaseMs }, at[0], at[1], result, KEY);
const complete = (
  client: number,
  owner: string,
  at: [number, number],
  result: Result,
  ttlMs = DAY,
  body = '{"id":"ch_1"}',
): Op => op(client, { op: 'complete', owner, status: '201', body, ttlMs }, at[0], at[1], result, KEY);
const release = (client: number, owner: string, at: [number, number], result: Result): Op =>
  op(client, { op: 'release', owner }, at[0], at[1], result, KEY);
const renew = (client: number, owner: string, at: [number, number], result: Result, leaseMs: number): Op =>
  op(client, { op: 'renew', owner, leaseMs }, at[0], at[1], result, KEY);

const fresh = { output: ['fresh'] as IdempotencyOutput };
const hitPending = (fingerprint = 'fp-1') => ({ output: ['hit', 'pending', fingerprint, '', ''] as IdempotencyOutput });
const hitCompleted = (body = '{"id":"ch_1"}') => ({
  output: ['hit', 'completed', 'fp-1', '201', body] as IdempotencyOutput,
});
const one = { output: 1 as IdempotencyOutput };
const zero = { output: 0 as IdempotencyOutput };

const run = (ops: Op[]): CheckResult => check(history(ops), PATTERNS.idempotency);

function onlyViolation(result: CheckResult) {
  expect(result.verdict).toBe('illegal');
  expect(result.violations).toHaveLength(1);
  return result.violations[0];
}

describe('legal histories that look suspicious', () => {
  it('accepts a fresh register just after a lease expired, inside the eps window', () => {
    // A's 100 ms lease, set during [0, 10], ends somewhere in [75, 135].
    const ops = [register(1, 'A', [0, 10], fresh, 100), register(2, 'B', [80, 90], fresh)];
    expect(run(ops).verdict).toBe('ok');
  });

  it('accepts an info complete followed by reads consistent with it having applied, or not', () => {
    const base = () => [register(1, 'A', [0, 10], fresh), complete(1, 'A', [20, 30], 'info')];
    expect(run([...base(), register(2, 'B', [100, 110], hitCompleted())]).verdict).toBe('ok');
    expect(run([...base(), register(2, 'B', [100, 110], hitPending())]).verdict).toBe('ok');
  });

  it('accepts concurrent registers of which one won', () => {
    const ops = [
      register(1, 'A', [0, 50], fresh, 60_000, 'fp-A'),
      register(2, 'B', [10, 40], hitPending('fp-A'), 60_000, 'fp-B'),
      register(3, 'C', [20, 60], hitPending('fp-A'), 60_000, 'fp-C'),
    ];
    expect(run(ops).verdict).toBe('ok');
  });

  it('accepts a later hit made legal by a renew that extended the lease', () => {
    const withRenew = [
      register(1, 'A', [0, 10], fresh, 100),
      renew(1, 'A', [50, 60], one, 1_000),
      register(2, 'B', [300, 310], hitPending()),
    ];
    expect(run(withRenew).verdict).toBe('ok');
    // Without the renew the lease ended by 135 ms, so the same hit is impossible.
    const withoutRenew = [register(1, 'A', [0, 10], fresh, 100), register(2, 'B', [300, 310], hitPending())];
    expect(run(withoutRenew).verdict).toBe('illegal');
  });

  it('accepts a stale owner being refused after another owner re-registered', () => {
    const ops = [
      register(1, 'A', [0, 10], fresh, 100),
      register(2, 'B', [200, 210], fresh),
      complete(1, 'A', [300, 310], zero),
    ];
    expect(run(ops).verdict).toBe('ok');
  });
});

describe('one-winner', () => {
  it('names two overlapping fresh registers when no expiry is possible', () => {
    const first = register(1, 'A', [0, 30], fresh);
    const second = register(2, 'B', [10, 40], fresh);
    const violation = onlyViolation(run([first, second]));
    expect(violation.invariant).toBe('one-winner');
    expect(violation.key).toBe(KEY);
    expect(violation.witness.map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    expect(violation.subHistory.map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    expect(violation.message).toMatch(/client [12]'s register/);
    expect(violation.message).toContain(KEY);
  });
});

describe('no-stale-overwrite', () => {
  it("names a stale owner's complete that returned 1 after another owner re-registered", () => {
    const lost = register(1, 'A', [0, 10], fresh, 100);
    const taker = register(2, 'B', [200, 210], fresh);
    const stale = complete(1, 'A', [300, 310], one);
    const violation = onlyViolation(run([lost, taker, stale]));
    expect(violation.invariant).toBe('no-stale-overwrite');
    expect(violation.witness.map((o) => o.id)).toEqual([taker.id, stale.id]);
    expect(violation.message).toContain("client 1's complete");
    expect(violation.message).toContain('300–310 ms');
    expect(violation.message).toContain('"B"');
  });

  it('names a renew by an owner who never held the key', () => {
    const ops = [register(1, 'A', [0, 10], fresh), renew(2, 'B', [20, 30], one, 1_000)];
    expect(onlyViolation(run(ops)).invariant).toBe('no-stale-overwrite');
  });
});

describe('no-resurrection', () => {
  it('names a release that deleted a completed key, followed by a fresh register', () => {
    const owner = register(1, 'A', [0, 10], fresh);
    const done = complete(1, 'A', [20, 30], one);
    const deleting = release(1, 'A', [40, 50], one);
    const again = register(2, 'B', [60, 70], fresh);
    const violation = onlyViolation(run([owner, done, deleting, again]));
    expect(violation.invariant).toBe('no-resurrection');
    expect(violation.witness.map((o) => o.id)).toEqual([done.id, deleting.id]);
    expect(violation.message).toContain('deleted a completed record');
  });

  it('names the fresh register when the deleting release was indeterminate', () => {
    const again = register(2, 'B', [60, 70], fresh);
    const ops = [
      register(1, 'A', [0, 10], fresh),
      complete(1, 'A', [20, 30], one),
      release(1, 'A', [40, 50], 'info'),
      again,
    ];
    const violation = onlyViolation(run(ops));
    expect(violation.invariant).toBe('no-resurrection');
    expect(violation.witness.map((o) => o.id)).toContain(again.id);
  });

  it("names a register that saw 'fresh' well before a completed key's TTL", () => {
    const done = complete(1, 'A', [20, 30], one, 10_000);
    const early = register(2, 'B', [500, 510], fresh);
    const violation = onlyViolation(run([register(1, 'A', [0, 10], fresh), done, early]));
    expect(violation.invariant).toBe('no-resurrection');
    expect(violation.witness.map((o) => o.id)).toEqual([done.id, early.id]);
    expect(violation.message).toContain("client 2's register");
    expect(violation.message).toContain('500–510 ms');
    expect(violation.message).toContain('could not run out before 9995 ms');
  });

  it('names a read of a different stored response before the TTL', () => {
    const ops = [
      register(1, 'A', [0, 10], fresh),
      complete(1, 'A', [20, 30], one),
      register(2, 'B', [100, 110], hitCompleted('{"id":"ch_2"}')),
    ];
    expect(onlyViolation(run(ops)).invariant).toBe('no-resurrection');
  });

  it('accepts the fresh register once the TTL has run out', () => {
    const ops = [
      register(1, 'A', [0, 10], fresh),
      complete(1, 'A', [20, 30], one, 100),
      register(2, 'B', [200, 210], fresh),
    ];
    expect(run(ops).verdict).toBe('ok');
  });
});

describe('model-conformance', () => {
  it('names an output no state allows', () => {
    const impossible = complete(1, 'A', [20, 30], { output: 2 as unknown as IdempotencyOutput });
    const violation = onlyViolation(run([register(1, 'A', [0, 10], fresh), impossible]));
    expect(violation.invariant).toBe('model-conformance');
    expect(violation.witness.map((o) => o.id)).toContain(impossible.id);
    expect(violation.subHistory.map((o) => o.id)).toEqual([impossible.id]);
  });

  it('names a hit that reports another fingerprint than the pending one', () => {
    const ops = [
      register(1, 'A', [0, 10], fresh, 60_000, 'fp-A'),
      register(2, 'B', [20, 30], hitPending('fp-X'), 60_000, 'fp-B'),
    ];
    expect(onlyViolation(run(ops)).invariant).toBe('model-conformance');
  });

  it('names an owner refused while it still held the key', () => {
    expect(onlyViolation(run([register(1, 'A', [0, 10], fresh), complete(1, 'A', [20, 30], zero)])).invariant).toBe(
      'model-conformance',
    );
  });
});

describe('describeViolation', () => {
  it('prints the invariant, the sentence, the witnesses and the sub-history', () => {
    const ops = [register(1, 'A', [0, 30], fresh), register(2, 'B', [10, 40], fresh)];
    const text = describeViolation(onlyViolation(run(ops)));
    expect(text).toMatch(/^one-winner violated on key/);
    expect(text).toContain('witness:');
    expect(text).toContain('minimal violating sub-history (2 ops)');
    expect(text.split('\n').filter((line) => line.includes('"op":"register"'))).toHaveLength(4);
  });
});
