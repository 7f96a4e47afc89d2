import { describe, expect, it } from 'vitest';
import { classifySemaphore } from '../../../../src/patterns/semaphore/invariants.ts';
import {
  semaphore,
  type SemaphoreInput,
  type SemaphoreOutput,
  type SemaphoreState,
} from '../../../../src/patterns/semaphore/model.ts';
import type { OpRecord } from '../../../../src/history/types.ts';

const acquire = (token: string, limit = 2, ttlMs = 1000): SemaphoreInput => ({ op: 'acquire', token, limit, ttlMs });
const release = (token: string): SemaphoreInput => ({ op: 'release', token });
const refresh = (token: string, ttlMs = 2000): SemaphoreInput => ({ op: 'refresh', token, ttlMs });

function run(inputs: SemaphoreInput[], start: SemaphoreState = semaphore.init()) {
  let state = start;
  const outputs: SemaphoreOutput[] = [];
  inputs.forEach((input, i) => {
    const step = semaphore.step(state, input, i + 1);
    state = step.state;
    outputs.push(step.output);
  });
  return { state, outputs };
}

const tokens = (state: SemaphoreState) => state.holders.map((h) => h.token);

describe('semaphore model: places', () => {
  it('grants up to `limit` distinct holders and refuses the next with 0', () => {
    const { state, outputs } = run([acquire('a'), acquire('b'), acquire('c')]);
    expect(outputs).toEqual([1, 1, 0]);
    expect(tokens(state)).toEqual(['a', 'b']);
  });

  it('a live holder acquiring again is renewed (1, a new lease tag), even when full, and takes no second place', () => {
    const { state, outputs } = run([acquire('a'), acquire('b'), acquire('a')]);
    expect(outputs).toEqual([1, 1, 1]);
    expect(state.holders).toEqual([
      { token: 'a', tag: 3 },
      { token: 'b', tag: 2 },
    ]);
  });

  it('release frees the place of a live holder (1) and answers 0 to anyone else', () => {
    const { state, outputs } = run([acquire('a'), release('b'), release('a'), release('a')]);
    expect(outputs).toEqual([1, 0, 1, 0]);
    expect(state).toEqual(semaphore.init());
  });

  it('a released place goes to the next acquirer', () => {
    expect(run([acquire('a', 1), acquire('b', 1), release('a'), acquire('b', 1)]).outputs).toEqual([1, 0, 1, 1]);
  });

  it('refresh renews a live holder (1, new tag) and answers 0 to a token that does not hold', () => {
    const { state, outputs } = run([acquire('a'), refresh('b'), refresh('a')]);
    expect(outputs).toEqual([1, 0, 1]);
    expect(state.holders).toEqual([{ token: 'a', tag: 3 }]);
  });

  it('refuses a limit or TTL the scripts refuse with an error', () => {
    expect(() => semaphore.step(semaphore.init(), acquire('a', 0), 1)).toThrow(/acquire.limit/);
    expect(() => semaphore.step(semaphore.init(), acquire('a', 1, 0), 1)).toThrow(/acquire.ttlMs/);
    expect(() => semaphore.step(semaphore.init(), refresh('a', 0), 1)).toThrow(/refresh.ttlMs/);
  });

  it('the state does not depend on the order holders came in', () => {
    const ab = run([acquire('a'), acquire('b')]).state;
    const ba = semaphore.step(semaphore.step(semaphore.init(), acquire('b'), 2).state, acquire('a'), 1).state;
    expect(semaphore.hashState(ab)).toBe(semaphore.hashState(ba));
  });
});

describe('semaphore model: each holder its own lease', () => {
  it('lists every live lease; expiring one drops that holder only', () => {
    const { state } = run([acquire('a'), acquire('b')]);
    expect(semaphore.leaseTags?.(state)).toEqual([1, 2]);
    const afterA = semaphore.expire(state, 1);
    expect(tokens(afterA)).toEqual(['b']);
    expect(semaphore.expire(afterA, 2)).toEqual(semaphore.init());
  });

  it('an expired holder is not live: refresh and release answer 0, and its place is free for another', () => {
    const expired = semaphore.expire(run([acquire('a', 1)]).state, 1);
    expect(run([refresh('a'), release('a'), acquire('b', 1)], expired).outputs).toEqual([0, 0, 1]);
  });

  it("a refresh replaces the holder's tag: the expiry of its acquire is then a no-op", () => {
    const refreshed = run([acquire('a'), refresh('a')]).state;
    expect(semaphore.expire(refreshed, 1)).toBe(refreshed);
    expect(semaphore.expire(refreshed, 2)).toEqual(semaphore.init());
  });

  it('expiryMs is the TTL of acquire and refresh, nothing for release', () => {
    expect(semaphore.expiryMs(acquire('a', 2, 321))).toBe(321);
    expect(semaphore.expiryMs(refresh('a', 654))).toBe(654);
    expect(semaphore.expiryMs(release('a'))).toBeUndefined();
  });

  it('describes inputs, outputs and states', () => {
    expect(semaphore.describeInput(acquire('a', 2, 50))).toBe('acquire(token="a", limit=2, ttl=50ms)');
    expect(semaphore.describeState(run([acquire('a')]).state)).toBe('holders("a" ttl of op 1)');
    expect(semaphore.describeState(semaphore.init())).toBe('no holders');
    expect(semaphore.outputMatches(1, '1')).toBe(true);
    expect(semaphore.outputMatches(0, null)).toBe(false);
  });
});

describe('semaphore classifier', () => {
  const op = (input: SemaphoreInput, output: unknown): OpRecord<SemaphoreInput, SemaphoreOutput> =>
    ({
      type: 'op',
      id: 9,
      client: 1,
      key: 'k',
      input,
      invokedAt: 10,
      completedAt: 20,
      outcome: 'ok',
      output,
    }) as OpRecord<SemaphoreInput, SemaphoreOutput>;
  const classify = (state: SemaphoreState, input: SemaphoreInput, output: unknown) =>
    classifySemaphore({
      model: semaphore,
      key: 'k',
      op: op(input, output),
      state,
      expected: semaphore.step(state, input, 9).output,
      holder: undefined,
      holderLeaseFloor: undefined,
    });
  const full = run([acquire('a'), acquire('b')]).state;

  it('an acquire granted past the limit breaks at-most-limit', () => {
    expect(classify(full, acquire('c'), 1)?.invariant).toBe('at-most-limit');
  });

  it('a refresh by a token that is not live answering 1 breaks no-stale-refresh', () => {
    expect(classify(semaphore.expire(full, 1), refresh('a'), 1)?.invariant).toBe('no-stale-refresh');
  });

  it('anything else (a wrong 0, a stale release answering 1) is left to model-conformance', () => {
    expect(classify(full, acquire('a'), 0)).toBeUndefined();
    expect(classify(semaphore.expire(full, 1), release('a'), 1)).toBeUndefined();
    expect(classify(full, acquire('c'), 0)).toBeUndefined();
  });
});

describe('semaphore model: reacquire, the semantic variant of a holder acquiring again', () => {
  const counts = (token: string, limit = 2): SemaphoreInput => ({
    op: 'acquire',
    token,
    limit,
    ttlMs: 1000,
    reacquire: 'counts',
  });
  const renews = (token: string, limit = 2): SemaphoreInput => ({
    op: 'acquire',
    token,
    limit,
    ttlMs: 1000,
    reacquire: 'renews',
  });
  const full = run([acquire('a'), acquire('b')]).state;

  it('renews (the default, and what an input without the field means): a holder on a full set is renewed (1, new tag)', () => {
    for (const input of [acquire('a'), renews('a')]) {
      const step = semaphore.step(full, input, 7);
      expect(step.output).toBe(1);
      expect(step.state.holders).toEqual([
        { token: 'a', tag: 7 },
        { token: 'b', tag: 2 },
      ]);
    }
  });

  it('counts: a holder on a full set, itself included, is refused (0) and nothing changes, its old lease kept', () => {
    const step = semaphore.step(full, counts('a'), 7);
    expect(step.output).toBe(0);
    expect(step.state).toBe(full);
    expect(step.state.holders).toEqual([
      { token: 'a', tag: 1 },
      { token: 'b', tag: 2 },
    ]);
    // A mutex (limit 1) held by the asker is full too.
    const mutex = run([acquire('a', 1)]).state;
    expect(semaphore.step(mutex, counts('a', 1), 5)).toEqual({ state: mutex, output: 0 });
  });

  it('counts: with room, a holder is renewed as today (1, new tag, still one place)', () => {
    const roomy = run([acquire('a', 3), acquire('b', 3)]).state;
    const step = semaphore.step(roomy, counts('a', 3), 7);
    expect(step.output).toBe(1);
    expect(step.state.holders).toEqual([
      { token: 'a', tag: 7 },
      { token: 'b', tag: 2 },
    ]);
  });

  it('counts: a newcomer is judged as ever (a place when there is room, 0 on a full set)', () => {
    expect(run([counts('a'), counts('b'), counts('c')]).outputs).toEqual([1, 1, 0]);
  });

  it('describes the variant when an input carries it', () => {
    expect(semaphore.describeInput(counts('a'))).toBe('acquire(token="a", limit=2, ttl=1000ms, reacquire counts)');
  });

  it('a holder granted renewal on a full set against its promise (counts) is model-conformance, not at-most-limit: it took no new place', () => {
    const expected = semaphore.step(full, counts('a'), 9).output;
    const op = {
      type: 'op',
      id: 9,
      client: 1,
      key: 'k',
      input: counts('a'),
      invokedAt: 10,
      completedAt: 20,
      outcome: 'ok',
      output: 1,
    } as OpRecord<SemaphoreInput, SemaphoreOutput>;
    expect(
      classifySemaphore({
        model: semaphore,
        key: 'k',
        op,
        state: full,
        expected,
        holder: undefined,
        holderLeaseFloor: undefined,
      }),
    ).toBeUndefined();
    // A newcomer granted on a full set is still a breach of the limit, whatever the variant.
    const newcomer = { ...op, input: counts('c') };
    expect(
      classifySemaphore({
        model: semaphore,
        key: 'k',
        op: newcomer,
        state: full,
        expected: 0,
        holder: undefined,
        holderLeaseFloor: undefined,
      })?.invariant,
    ).toBe('at-most-limit');
  });
});
