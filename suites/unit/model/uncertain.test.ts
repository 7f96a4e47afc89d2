import { describe, it, expect } from 'vitest';
import { initialCandidates, leaseWindows, observeStep } from '../../../src/model/index.ts';
import { lock, ratelimit, type LockInput } from '../../../src/patterns/models.ts';

const acquire = (token: string, ttlMs = 100): LockInput => ({ op: 'acquire', token, ttlMs });
const at = (sentAt: number, repliedAt: number, observed: unknown) => ({ sentAt, repliedAt, observed, slackMs: 2 });

describe('observeStep: sequential mode when each instant is known only within [sent, replied]', () => {
  it('a new lease may end anywhere from sent + ms - slack to replied + ms + slack', () => {
    const { candidates } = observeStep(lock, initialCandidates(lock), acquire('t1'), 1, at(10, 15, 1));
    expect(leaseWindows(candidates)).toEqual([{ tag: 1, from: 108, to: 117 }]);
  });

  it('a reply the model does not allow leaves no candidate, and reports what was allowed', () => {
    const { candidates, expected } = observeStep(lock, initialCandidates(lock), acquire('t1'), 1, at(0, 1, 0));
    expect(candidates).toEqual([]);
    expect(expected).toEqual([1]);
  });

  it('an operation entirely before the window sees the key; entirely after, sees it expired', () => {
    const held = observeStep(lock, initialCandidates(lock), acquire('t1'), 1, at(0, 1, 1)).candidates;
    expect(observeStep(lock, held, acquire('t2'), 2, at(50, 51, 0)).candidates).toHaveLength(1);
    expect(observeStep(lock, held, acquire('t2'), 2, at(50, 51, 1)).candidates).toEqual([]);
    expect(observeStep(lock, held, acquire('t2'), 2, at(104, 105, 1)).candidates).toHaveLength(1);
    expect(observeStep(lock, held, acquire('t2'), 2, at(104, 105, 0)).candidates).toEqual([]);
  });

  it('an operation overlapping the window keeps both branches, and the reply picks the one it fits', () => {
    const held = observeStep(lock, initialCandidates(lock), acquire('t1'), 1, at(0, 1, 1)).candidates;
    const stillHeld = observeStep(lock, held, { op: 'release', token: 't1' }, 2, at(97, 100, 1));
    expect(stillHeld.expected).toEqual([1, null]);
    expect(stillHeld.candidates.map((c) => c.state)).toEqual([{ kind: 'absent' }]);
    const gone = observeStep(lock, held, { op: 'release', token: 't1' }, 2, at(97, 100, null));
    expect(gone.candidates.map((c) => c.state)).toEqual([{ kind: 'absent' }]);
  });

  it('when both branches fit the reply, both stay candidates until a later reply tells them apart', () => {
    const hit = { op: 'hit', limit: 3, windowSeconds: 1 } as const;
    const first = observeStep(ratelimit, initialCandidates(ratelimit), hit, 1, at(0, 1, 1)).candidates;
    const ambiguous = observeStep(ratelimit, first, hit, 2, at(997, 1000, 1)).candidates;
    expect(ambiguous.map((c) => ratelimit.describeState(c.state)).sort()).toEqual([
      'window(allowed=1, ttl of op 2)',
      'window(allowed=2, ttl of op 1)',
    ]);
    const third = observeStep(ratelimit, ambiguous, hit, 3, at(1010, 1011, 1)).candidates;
    expect(third.map((c) => ratelimit.describeState(c.state)).sort()).toEqual([
      'window(allowed=1, ttl of op 3)',
      'window(allowed=2, ttl of op 2)',
    ]);
    const fourth = observeStep(ratelimit, third, hit, 4, at(1020, 1021, 1)).candidates;
    // Only the branch where op 1's window had ended before op 2 still has room for a fifth hit.
    const fifth = observeStep(ratelimit, fourth, hit, 5, at(1030, 1031, 1)).candidates;
    expect(fifth.map((c) => ratelimit.describeState(c.state))).toEqual(['window(allowed=3, ttl of op 3)']);
  });
});
