import { describe, it, expect } from 'vitest';
import { lock, type LockInput, type LockOutput, type LockState } from '../../../../src/patterns/models.ts';

const acquire = (token: string, ttlMs = 1000): LockInput => ({ op: 'acquire', token, ttlMs });
const release = (token: string): LockInput => ({ op: 'release', token });
const extend = (token: string, ttlMs = 2000): LockInput => ({ op: 'extend', token, ttlMs });

function run(inputs: LockInput[], start: LockState = lock.init()) {
  let state = start;
  const outputs: LockOutput[] = [];
  inputs.forEach((input, i) => {
    const step = lock.step(state, input, i + 1);
    state = step.state;
    outputs.push(step.output);
  });
  return { state, outputs };
}

describe('lock model: compare-and-delete transitions', () => {
  it('acquire takes a free lock and refuses a held one, even to the holder', () => {
    const { state, outputs } = run([acquire('t1'), acquire('t2'), acquire('t1')]);
    expect(outputs).toEqual([1, 0, 0]);
    expect(state).toEqual({ kind: 'held', token: 't1', tag: 1 });
  });

  it('remove_if_matches answers nil when absent, -1 for another token, 1 when it deletes', () => {
    expect(run([release('t1')]).outputs).toEqual([null]);
    const { state, outputs } = run([acquire('t1'), release('t2'), release('t1'), release('t1')]);
    expect(outputs).toEqual([1, -1, 1, null]);
    expect(state.kind).toBe('absent');
  });

  it('a release by another token leaves the holder in place', () => {
    expect(run([acquire('t1'), release('t2')]).state).toEqual({ kind: 'held', token: 't1', tag: 1 });
  });

  it('extend answers nil when absent, -1 for another token, 1 and a new lease tag for the holder', () => {
    expect(run([extend('t1')]).outputs).toEqual([null]);
    const { state, outputs } = run([acquire('t1'), extend('t2'), extend('t1')]);
    expect(outputs).toEqual([1, -1, 1]);
    expect(state).toEqual({ kind: 'held', token: 't1', tag: 3 });
  });

  it('extend with a non-positive TTL deletes the lock (PEXPIRE semantics) and answers 1', () => {
    expect(run([acquire('t1'), extend('t1', 0)])).toMatchObject({ outputs: [1, 1], state: { kind: 'absent' } });
  });

  it('acquire rejects a TTL that SET PX would refuse with an error', () => {
    expect(() => lock.step(lock.init(), acquire('t1', 0), 1)).toThrow(/acquire.ttlMs/);
  });

  it('the model never prescribes 0 from release or extend: atomic execution cannot reach it', () => {
    const states: LockState[] = [lock.init(), { kind: 'held', token: 't1', tag: 1 }];
    for (const state of states) {
      for (const input of [release('t1'), release('t2'), extend('t1'), extend('t2')]) {
        expect(lock.step(state, input, 9).output).not.toBe(0);
      }
    }
  });
});

describe('lock model: expiry', () => {
  it('after the holder lease expires another token can acquire, and the old holder gets nil then -1', () => {
    const expired = lock.expire(run([acquire('t1')]).state, 1);
    expect(expired.kind).toBe('absent');
    expect(run([release('t1'), acquire('t2'), release('t1'), extend('t1')], expired).outputs).toEqual([
      null,
      1,
      -1,
      -1,
    ]);
  });

  it('an extend replaces the tag: the expiry of the acquire lease is then a no-op', () => {
    const extended = run([acquire('t1'), extend('t1')]).state;
    expect(lock.expire(extended, 1)).toBe(extended);
    expect(lock.expire(extended, 2).kind).toBe('absent');
  });

  it('expiryMs is the TTL of acquire and extend, nothing for release', () => {
    expect(lock.expiryMs(acquire('t', 321))).toBe(321);
    expect(lock.expiryMs(extend('t', 654))).toBe(654);
    expect(lock.expiryMs(release('t'))).toBeUndefined();
  });
});

describe('lock model: outputMatches', () => {
  it('nil matches null or undefined only; integers match as numbers, strings or Buffers', () => {
    expect(lock.outputMatches(null, null)).toBe(true);
    expect(lock.outputMatches(null, undefined)).toBe(true);
    expect(lock.outputMatches(null, 0)).toBe(false);
    expect(lock.outputMatches(null, '')).toBe(false);
    expect(lock.outputMatches(-1, '-1')).toBe(true);
    expect(lock.outputMatches(-1, Buffer.from('-1'))).toBe(true);
    expect(lock.outputMatches(-1, 1)).toBe(false);
    expect(lock.outputMatches(0, null)).toBe(false);
    expect(lock.outputMatches(1, 'OK')).toBe(false);
  });

  it('describes inputs, outputs and states', () => {
    expect(lock.describeInput(extend('t1', 50))).toBe('extend(token="t1", ttl=50ms)');
    expect(lock.describeOutput(null)).toBe('nil');
    expect(lock.describeState(run([acquire('t1')]).state)).toBe('held(token="t1", ttl of op 1)');
  });
});
