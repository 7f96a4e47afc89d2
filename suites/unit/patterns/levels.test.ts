// Answer levels (src/patterns/levels.ts, each pattern's levels.ts): the projection of the model's
// exact answer, the validation of a coarse one, and the checker judging a history whose answers
// were given at a coarse level, while raw exact answers are judged exactly as before.
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { isLeveledAnswer, withLevels, type LeveledAnswer } from '../../../src/patterns/levels.ts';
import { lock as exactLock } from '../../../src/patterns/lock/model.ts';
import { history, ok, op } from '../checker/support/ops.ts';

const lock = PATTERNS.lock.model;
const idempotency = PATTERNS.idempotency.model;
const at = (level: string, operation: string, answer: unknown): LeveledAnswer => ({ level, op: operation, answer });

describe('levels: projection and validation', () => {
  it('leaves raw answers to the model: an implementation declaring nothing is judged as before', () => {
    for (const [expected, observed] of [
      [1, 1],
      [null, null],
      [-1, '-1'],
      [0, 0],
    ] as const)
      expect(lock.outputMatches(expected, observed)).toBe(exactLock.outputMatches(expected, observed));
    expect(lock.outputMatches(-1, null)).toBe(false);
    expect(lock.outputMatches(1, true)).toBe(false); // a boolean is not an exact answer
  });

  it('lock boolean: 1 is true, nil and -1 are both false, and only a boolean is a boolean answer', () => {
    expect(lock.outputMatches(1, at('boolean', 'release', true))).toBe(true);
    expect(lock.outputMatches(null, at('boolean', 'release', false))).toBe(true);
    expect(lock.outputMatches(-1, at('boolean', 'release', false))).toBe(true);
    expect(lock.outputMatches(-1, at('boolean', 'release', true))).toBe(false);
    expect(lock.outputMatches(0, at('boolean', 'acquire', true))).toBe(false);
    expect(lock.outputMatches(1, at('boolean', 'release', 1))).toBe(false);
    expect(lock.outputMatches(1, at('boolean', 'release', 'true'))).toBe(false);
  });

  it('void accepts any answer; a level the operation does not have matches nothing', () => {
    for (const expected of [1, -1, null] as const)
      expect(lock.outputMatches(expected, at('void', 'release', null))).toBe(true);
    expect(lock.outputMatches(1, at('void', 'acquire', null))).toBe(false);
    expect(lock.outputMatches(1, at('outcome', 'release', true))).toBe(false);
  });

  it('an exact answer that came with a handle is compared exactly', () => {
    expect(lock.outputMatches(1, { level: 'exact', op: 'acquire', answer: 1, handle: 'h' })).toBe(true);
    expect(lock.outputMatches(0, { level: 'exact', op: 'acquire', answer: 1, handle: 'h' })).toBe(false);
  });

  it('idempotency register outcome: fresh, in-progress without the stored fingerprint, completed with its response', () => {
    expect(idempotency.outputMatches(['fresh'], at('outcome', 'register', ['fresh']))).toBe(true);
    expect(
      idempotency.outputMatches(['hit', 'pending', 'f1', '', ''], at('outcome', 'register', ['in-progress'])),
    ).toBe(true);
    expect(
      idempotency.outputMatches(
        ['hit', 'completed', 'f1', '200', 'ok'],
        at('outcome', 'register', ['completed', '200', 'ok']),
      ),
    ).toBe(true);
    expect(
      idempotency.outputMatches(
        ['hit', 'completed', 'f1', '200', 'ok'],
        at('outcome', 'register', ['completed', '200', 'other']),
      ),
    ).toBe(false);
    expect(
      idempotency.outputMatches(['hit', 'completed', 'f1', '200', 'ok'], at('outcome', 'register', ['in-progress'])),
    ).toBe(false);
    expect(idempotency.outputMatches(['fresh'], at('outcome', 'register', ['in-progress']))).toBe(false);
    expect(idempotency.outputMatches(['fresh'], at('outcome', 'register', 'fresh'))).toBe(false);
    expect(idempotency.outputMatches(1, at('boolean', 'complete', true))).toBe(true);
    expect(idempotency.outputMatches(0, at('boolean', 'renew', true))).toBe(false);
  });

  it('ratelimit and semaphore answer allowed / held as booleans', () => {
    expect(PATTERNS.ratelimit.model.outputMatches(1, at('boolean', 'hit', true))).toBe(true);
    expect(PATTERNS.ratelimit.model.outputMatches(0, at('boolean', 'hit', true))).toBe(false);
    expect(PATTERNS.semaphore.model.outputMatches(0, at('boolean', 'acquire', false))).toBe(true);
    expect(PATTERNS.semaphore.model.outputMatches(0, at('boolean', 'refresh', true))).toBe(false);
  });

  it('an envelope is only ever exactly its fields', () => {
    expect(isLeveledAnswer(at('boolean', 'release', true))).toBe(true);
    expect(isLeveledAnswer({ level: 'boolean', op: 'release', answer: true, extra: 1 })).toBe(false);
    expect(isLeveledAnswer({ level: 'boolean', op: 'release', answer: true, handle: 3 })).toBe(false);
    expect(isLeveledAnswer(['boolean'])).toBe(false);
  });

  it('describes a coarse answer with its level and handle', () => {
    expect(lock.describeOutput({ level: 'boolean', op: 'release', answer: true, handle: 'abc' } as never)).toBe(
      'true (release at level boolean, handle abc)',
    );
    expect(lock.describeOutput(-1)).toBe('-1');
    expect(withLevels(exactLock, {}).describeOutput(at('void', 'release', null) as never)).toBe(
      'null (release at level void)',
    );
  });
});

describe("the checker with coarse answers: the search is the model's, only the comparison is projected", () => {
  const acquire = (token: string) => ({ op: 'acquire' as const, token, ttlMs: 10_000 });
  const release = (token: string) => ({ op: 'release' as const, token });

  it('a correct boolean history is linearizable', () => {
    const h = history<unknown, unknown>([
      op(0, acquire('a'), 0, 5, ok(at('boolean', 'acquire', true))),
      op(1, release('b'), 10, 15, ok(at('boolean', 'release', false))),
      op(0, release('a'), 20, 25, ok(at('boolean', 'release', true))),
      op(1, acquire('b'), 30, 35, ok(at('boolean', 'acquire', true))),
    ]);
    expect(check(h, PATTERNS.lock).verdict).toBe('ok');
  });

  it('a foreign release answering true is no-stale-release, even though the boolean hides -1 from nil', () => {
    const h = history<unknown, unknown>([
      op(0, acquire('a'), 0, 5, ok(at('boolean', 'acquire', true))),
      op(1, release('b'), 10, 15, ok(at('boolean', 'release', true))),
    ]);
    const result = check(h, PATTERNS.lock);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('no-stale-release');
  });

  it('a blind void release is still caught, through the acquire that follows it: one-holder', () => {
    const h = history<unknown, unknown>([
      op(0, acquire('a'), 0, 5, ok(at('boolean', 'acquire', true))),
      op(1, release('b'), 10, 15, ok(at('void', 'release', null))),
      op(2, acquire('c'), 20, 25, ok(at('boolean', 'acquire', true))),
    ]);
    const result = check(h, PATTERNS.lock);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('one-holder');
  });

  it('a register outcome of fresh while another owner is pending is one-winner', () => {
    const register = (owner: string) => ({ op: 'register' as const, fingerprint: 'f', owner, leaseMs: 10_000 });
    const h = history<unknown, unknown>([
      op(0, register('a'), 0, 5, ok(at('outcome', 'register', ['fresh']))),
      op(1, register('b'), 10, 15, ok(at('outcome', 'register', ['fresh']))),
    ]);
    const result = check(h, PATTERNS.idempotency);
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('one-winner');
  });
});

describe('the holder lookahead reads a coarse answer for what it stands for', () => {
  const acquire = (token: string) => ({ op: 'acquire' as const, token, ttlMs: 10_000 });
  const release = (token: string) => ({ op: 'release' as const, token });
  const withHandle = (answer: unknown): LeveledAnswer => ({ level: 'exact', op: 'acquire', answer, handle: 'h' });

  it('an exact acquire that came with a handle grants its token: the only order that explains the key is not pruned', () => {
    // b acquires and releases inside a's slow acquire; a releases last. Read as granting nothing, a's
    // acquire left a's release unexplainable once b's acquire was placed first: a false no-stale-release.
    const h = history<unknown, unknown>([
      op(0, acquire('a'), 0, 100, ok(withHandle(1))),
      op(1, acquire('b'), 0, 1, ok(1)),
      op(1, release('b'), 2, 3, ok(1)),
      op(0, release('a'), 200, 201, ok(1)),
    ]);
    expect(check(h, PATTERNS.lock).verdict).toBe('ok');
    // The same keys with b's release at a time when a must hold: illegal, as before.
    const late = history<unknown, unknown>([
      op(0, acquire('a'), 0, 1, ok(withHandle(1))),
      op(1, release('b'), 2, 3, ok(1)),
    ]);
    expect(check(late, PATTERNS.lock).verdict).toBe('illegal');
  });

  it('hooks see the exact answers an envelope stands for, and the least they may say where those disagree or are unnamed', () => {
    const at2 = (level: string, operation: string, answer: unknown) => at(level, operation, answer) as never;
    expect(lock.requires!(release('a'), at2('boolean', 'release', true))).toBe('a');
    expect(lock.requires!(release('a'), at2('boolean', 'release', false))).toBeUndefined();
    expect(lock.excludes!(release('a'), at2('boolean', 'release', false))).toBe('a');
    expect(lock.requiresVacant!(release('a'), at2('boolean', 'release', false))).toBe(false); // nil or -1
    expect(lock.requiresVacant!(acquire('a'), at2('boolean', 'acquire', true))).toBe(true);
    expect(lock.grants!(acquire('a'), at2('boolean', 'acquire', false))).toBeUndefined();
    expect(lock.grants!(acquire('a'), at2('boolean', 'acquire', true))).toBe('a');
    expect(lock.grants!(acquire('a'), withHandle(1) as never)).toBe('a');
    expect(lock.answerLeaves!(release('a'), at2('void', 'release', null), 1)).toBeUndefined();
    expect(lock.excludes!(release('a'), at2('void', 'release', null))).toBeUndefined();
    // An answer the level refuses says nothing.
    expect(lock.requires!(release('a'), at2('boolean', 'release', 1))).toBeUndefined();
  });
});
