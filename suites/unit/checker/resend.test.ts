/**
 * A client that resends unanswered commands when its connection comes back (ioredis's default)
 * may run one operation twice, and sees only the last reply: a register whose reply was lost finds
 * its own pending record (REDIS-FACTS). The checker allows that second execution for operations
 * overlapping a fault that cut connections, and only for those.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import type { RateLimitInput, RateLimitOutput } from '../../../src/patterns/ratelimit/model.ts';
import { fault, history, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;

const cut = (startedAt: number, endedAt: number): FaultRecord => ({
  ...fault('toxic', startedAt, endedAt, false),
  cutsConnections: true,
});
const uncut = (startedAt: number, endedAt: number): FaultRecord => fault('toxic', startedAt, endedAt, false);

const register = (client: number, owner: string, at: [number, number], output: IdempotencyOutput): Op =>
  op(client, { op: 'register', fingerprint: 'fp', owner, leaseMs: 60_000 }, at[0], at[1], { output });
const release = (client: number, owner: string, at: [number, number], output: IdempotencyOutput): Op =>
  op(client, { op: 'release', owner }, at[0], at[1], { output });

// The first execution created the record; its reply was lost; the resent one found it.
const ownHit = (): Op[] => [
  register(1, 'A', [0, 50], ['hit', 'pending', 'fp', '', '']),
  register(2, 'B', [60, 70], ['hit', 'pending', 'fp', '', '']),
];

describe('operations run twice by a resend after a cut connection', () => {
  it('a register that sees its own pending record is legal when a connection cut overlaps it', () => {
    expect(check(history(ownHit(), [cut(10, 20)]), PATTERNS.idempotency).verdict).toBe('ok');
  });

  it('the same history with no cut, or a fault that cut nothing, stays illegal', () => {
    expect(check(history(ownHit()), PATTERNS.idempotency).verdict).toBe('illegal');
    expect(check(history(ownHit(), [uncut(10, 20)]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('a cut before the operation does not excuse it', () => {
    expect(check(history(ownHit(), [cut(-30, -20)]), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('a release whose first execution deleted the key may answer 0', () => {
    const ops = [
      register(1, 'A', [0, 5], ['fresh']),
      release(1, 'A', [10, 40], 0),
      register(2, 'B', [50, 60], ['fresh']),
    ];
    expect(check(history(ops, [cut(20, 30)]), PATTERNS.idempotency).verdict).toBe('ok');
    expect(check(history(ops), PATTERNS.idempotency).verdict).toBe('illegal');
  });

  it('a second execution never excuses a second winner', () => {
    const ops = [register(1, 'A', [0, 50], ['fresh']), register(2, 'B', [60, 70], ['fresh'])];
    const result = check(history(ops, [cut(10, 20)]), PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('one-winner');
  });
});

describe('a real history: a renew resent after a reset_peer toxic on the client link', () => {
  // Recorded by the soak against the reference scripts: c6's renew (op 33) ran once, extending the
  // lease (so c1's register, op 39, found the key pending), lost its reply to the reset, and ran
  // again after the lease had run out, answering 0. Not a bug: a second execution.
  const recorded = JSON.parse(readFileSync(new URL('./fixtures/resent-renew.json', import.meta.url), 'utf8')) as {
    history: History<IdempotencyInput, IdempotencyOutput>;
  };

  it('is legal with the toxic marked as cutting connections', () => {
    expect(recorded.history.faults.some((f) => f.cutsConnections)).toBe(true);
    expect(check(recorded.history, PATTERNS.idempotency).verdict).toBe('ok');
  });

  it('was a false alarm without it', () => {
    const faults = recorded.history.faults.map((f) => ({ ...f, cutsConnections: false }));
    expect(check({ ...recorded.history, faults }, PATTERNS.idempotency).verdict).toBe('illegal');
  });
});

describe('a refusal after a cut connection: the first attempt may have run', () => {
  it('a BUSY-refused hit overlapping a connection cut may have counted', () => {
    const hit = (client: number, at: [number, number], result: { output: RateLimitOutput } | 'fail') =>
      op<RateLimitInput, RateLimitOutput>(client, { op: 'hit', limit: 1, windowSeconds: 60 }, at[0], at[1], result);
    const ops = [hit(1, [0, 50], 'fail'), hit(2, [60, 70], { output: 0 })];
    expect(check(history(ops, [cut(10, 20)]), PATTERNS.ratelimit).verdict).toBe('ok');
    expect(check(history(ops), PATTERNS.ratelimit).verdict).toBe('illegal');
    expect(check(history(ops, [uncut(10, 20)]), PATTERNS.ratelimit).verdict).toBe('illegal');
  });

  // Recorded by the ratelimit soak against the reference script: three hits were sent while a timeout
  // toxic held the client link of their master; the heal delivered them (counted) and cut the
  // connection; ioredis resent them into a busy-script burst and surfaced BUSY. A later hit was
  // blocked by the counts the "failed" hits had left.
  const recorded = JSON.parse(readFileSync(new URL('./fixtures/refused-after-cut.json', import.meta.url), 'utf8')) as {
    history: History<RateLimitInput, RateLimitOutput>;
  };

  it('is legal: the refused hits that overlap the cut are indeterminate', () => {
    expect(recorded.history.ops.some((o) => o.outcome === 'fail' && /^BUSY/.test(o.error ?? ''))).toBe(true);
    expect(check(recorded.history, PATTERNS.ratelimit).verdict).toBe('ok');
  });

  it('was a false alarm when BUSY was taken as "never ran"', () => {
    const faults = recorded.history.faults.map((f) => ({ ...f, cutsConnections: false }));
    expect(check({ ...recorded.history, faults }, PATTERNS.ratelimit).verdict).toBe('illegal');
  });
});
