import { describe, it, expect } from 'vitest';
import {
  idempotency,
  type IdempotencyInput,
  type IdempotencyOutput,
  type IdempotencyState,
} from '../../../../src/patterns/models.ts';

const reg = (owner: string, fingerprint = 'fp1', leaseMs = 1000): IdempotencyInput => ({
  op: 'register',
  fingerprint,
  owner,
  leaseMs,
});
const complete = (owner: string, status = '201', body = '{"id":1}', ttlMs = 5000): IdempotencyInput => ({
  op: 'complete',
  owner,
  status,
  body,
  ttlMs,
});
const release = (owner: string): IdempotencyInput => ({ op: 'release', owner });
const renew = (owner: string, leaseMs = 2000): IdempotencyInput => ({ op: 'renew', owner, leaseMs });

/** Steps the inputs as operations 1..n from `start`. */
function run(inputs: IdempotencyInput[], start: IdempotencyState = idempotency.init()) {
  let state = start;
  const outputs: IdempotencyOutput[] = [];
  inputs.forEach((input, i) => {
    const step = idempotency.step(state, input, i + 1);
    state = step.state;
    outputs.push(step.output);
  });
  return { state, outputs };
}

describe('idempotency model: register, complete, release and renew transitions', () => {
  it('register on an absent key is fresh and leaves a pending record leased by that op', () => {
    const { state, outputs } = run([reg('o1', 'fpA')]);
    expect(outputs).toEqual([['fresh']]);
    expect(state).toEqual({ kind: 'pending', fingerprint: 'fpA', owner: 'o1', tag: 1 });
  });

  it('register on a pending key is a hit with empty status and body, and changes nothing', () => {
    const { state, outputs } = run([reg('o1', 'fpA'), reg('o2', 'fpB')]);
    expect(outputs[1]).toEqual(['hit', 'pending', 'fpA', '', '']);
    expect(state).toEqual({ kind: 'pending', fingerprint: 'fpA', owner: 'o1', tag: 1 });
  });

  it('register by the same owner (a resent register) also sees its own record as a hit', () => {
    expect(run([reg('o1'), reg('o1')]).outputs[1]).toEqual(['hit', 'pending', 'fp1', '', '']);
  });

  it('complete by the owner stores the response and takes over the expiry', () => {
    const { state, outputs } = run([reg('o1', 'fpA'), complete('o1', '201', 'ok'), reg('o2', 'fpB')]);
    expect(outputs).toEqual([['fresh'], 1, ['hit', 'completed', 'fpA', '201', 'ok']]);
    expect(idempotency.leaseTag(state)).toBe(2);
  });

  it('complete by a stale owner returns 0 and leaves the record as it was', () => {
    const { state, outputs } = run([reg('o1'), complete('o2')]);
    expect(outputs[1]).toBe(0);
    expect(state).toEqual({ kind: 'pending', fingerprint: 'fp1', owner: 'o1', tag: 1 });
  });

  it('complete on an absent key returns 0 and creates nothing', () => {
    const { state, outputs } = run([complete('o1')]);
    expect(outputs).toEqual([0]);
    expect(state.kind).toBe('absent');
  });

  it('complete by the same owner on a completed key re-completes with the new response and TTL', () => {
    const { state, outputs } = run([reg('o1'), complete('o1', '200', 'first'), complete('o1', '409', 'second')]);
    expect(outputs.slice(1)).toEqual([1, 1]);
    expect(state).toEqual({
      kind: 'completed',
      fingerprint: 'fp1',
      owner: 'o1',
      status: '409',
      body: 'second',
      tag: 3,
    });
  });

  it('complete by another owner on a completed key returns 0', () => {
    expect(run([reg('o1'), complete('o1'), complete('o2')]).outputs[2]).toBe(0);
  });

  it('release by the owner of a pending key deletes it, and the next register is fresh', () => {
    const { outputs, state } = run([reg('o1'), release('o1'), reg('o2')]);
    expect(outputs).toEqual([['fresh'], 1, ['fresh']]);
    expect(state).toMatchObject({ kind: 'pending', owner: 'o2', tag: 3 });
  });

  it('release by another owner, of an absent key, or after complete returns 0 and changes nothing', () => {
    expect(run([reg('o1'), release('o2')]).state.kind).toBe('pending');
    expect(run([reg('o1'), release('o2')]).outputs[1]).toBe(0);
    expect(run([release('o1')]).outputs).toEqual([0]);
    const afterComplete = run([reg('o1'), complete('o1', '200', 'done'), release('o1'), reg('o2')]);
    expect(afterComplete.outputs.slice(2)).toEqual([0, ['hit', 'completed', 'fp1', '200', 'done']]);
  });

  it('renew by the owner of a pending key moves the lease to the renew', () => {
    const { outputs, state } = run([reg('o1'), renew('o1')]);
    expect(outputs[1]).toBe(1);
    expect(idempotency.leaseTag(state)).toBe(2);
  });

  it('renew by another owner, of an absent key, or of a completed key returns 0 and keeps the tag', () => {
    expect(run([reg('o1'), renew('o2')])).toMatchObject({ outputs: [['fresh'], 0], state: { tag: 1 } });
    expect(run([renew('o1')]).outputs).toEqual([0]);
    expect(run([reg('o1'), complete('o1'), renew('o1')])).toMatchObject({
      outputs: [['fresh'], 1, 0],
      state: { kind: 'completed', tag: 2 },
    });
  });

  it('a non-positive lease or TTL deletes the key at once (PEXPIRE semantics) but still succeeds', () => {
    expect(run([reg('o1', 'fp', 0)])).toMatchObject({ outputs: [['fresh']], state: { kind: 'absent' } });
    expect(run([reg('o1'), renew('o1', -5)])).toMatchObject({ outputs: [['fresh'], 1], state: { kind: 'absent' } });
    expect(run([reg('o1'), complete('o1', '200', 'b', 0)])).toMatchObject({
      outputs: [['fresh'], 1],
      state: { kind: 'absent' },
    });
  });

  it('rejects a lease that is not an integer: the script would fail after writing', () => {
    expect(() => idempotency.step(idempotency.init(), reg('o1', 'fp', 1.5), 1)).toThrow(/register.leaseMs/);
  });
});

describe('idempotency model: expiry by lease tag', () => {
  it('the expiry of the current lease makes the key absent, so a stale owner can no longer complete', () => {
    const leased = run([reg('o1')]).state;
    const expired = idempotency.expire(leased, 1);
    expect(expired.kind).toBe('absent');
    expect(idempotency.step(expired, complete('o1'), 2).output).toBe(0);
  });

  it('a renew replaces the tag: the expiry of the register lease is then a no-op', () => {
    const renewed = run([reg('o1'), renew('o1')]).state;
    expect(idempotency.expire(renewed, 1)).toBe(renewed);
    expect(idempotency.expire(renewed, 2).kind).toBe('absent');
  });

  it('stale owner: after its lease expired and o2 registered, o1 cannot complete, renew or release', () => {
    const taken = idempotency.step(idempotency.expire(run([reg('o1')]).state, 1), reg('o2', 'fpB'), 2).state;
    const { state, outputs } = run([complete('o1'), renew('o1'), release('o1')], taken);
    expect(outputs).toEqual([0, 0, 0]);
    expect(state).toEqual(taken);
  });

  it('a completed key expires by the tag of the last complete, not of the register', () => {
    const completed = run([reg('o1'), complete('o1')]).state;
    expect(idempotency.expire(completed, 1)).toBe(completed);
    expect(idempotency.expire(completed, 2).kind).toBe('absent');
  });

  it('expiryMs gives the lease or TTL each input sets, and nothing for release', () => {
    expect(idempotency.expiryMs(reg('o1', 'fp', 300))).toBe(300);
    expect(idempotency.expiryMs(renew('o1', 450))).toBe(450);
    expect(idempotency.expiryMs(complete('o1', '200', '', 9000))).toBe(9000);
    expect(idempotency.expiryMs(release('o1'))).toBeUndefined();
  });
});

describe('idempotency model: outputMatches', () => {
  const hit: IdempotencyOutput = ['hit', 'completed', 'fp1', '201', 'ok'];
  const pendingHit: IdempotencyOutput = ['hit', 'pending', 'fp1', '', ''];

  it('accepts the reply as ioredis, a Buffer client or a JSON client gives it', () => {
    expect(idempotency.outputMatches(1, 1)).toBe(true);
    expect(idempotency.outputMatches(0, '0')).toBe(true);
    expect(idempotency.outputMatches(1, Buffer.from('1'))).toBe(true);
    expect(idempotency.outputMatches(['fresh'], [Buffer.from('fresh')])).toBe(true);
    expect(idempotency.outputMatches(hit, ['hit', 'completed', 'fp1', 201, Buffer.from('ok')])).toBe(true);
    expect(idempotency.outputMatches(pendingHit, ['hit', 'pending', 'fp1', null, undefined])).toBe(true);
  });

  it('rejects anything looser', () => {
    expect(idempotency.outputMatches(1, 0)).toBe(false);
    expect(idempotency.outputMatches(1, true)).toBe(false);
    expect(idempotency.outputMatches(1, '01')).toBe(false);
    expect(idempotency.outputMatches(1, ' 1')).toBe(false);
    expect(idempotency.outputMatches(0, null)).toBe(false);
    expect(idempotency.outputMatches(['fresh'], 'fresh')).toBe(false);
    expect(idempotency.outputMatches(['fresh'], ['fresh', ''])).toBe(false);
    expect(idempotency.outputMatches(hit, ['hit', 'completed', 'fp1', '201'])).toBe(false);
    expect(idempotency.outputMatches(hit, ['hit', 'completed', 'fp1', null, 'ok'])).toBe(false);
    expect(idempotency.outputMatches(hit, ['hit', 'pending', 'fp1', '201', 'ok'])).toBe(false);
    expect(idempotency.outputMatches(pendingHit, ['hit', 'pending', 'fp1', '0', ''])).toBe(false);
    expect(idempotency.outputMatches(['fresh'], [null])).toBe(false);
  });
});

describe('idempotency model: descriptions', () => {
  it('describes inputs, outputs and states so that a counterexample reads without the code', () => {
    expect(idempotency.describeInput(complete('o1', '201', 'a b', 500))).toBe(
      'complete(owner="o1", status="201", body="a b", ttl=500ms)',
    );
    expect(idempotency.describeOutput(['hit', 'pending', 'fp1', '', ''])).toBe(
      'hit(pending, fingerprint="fp1", status="", body="")',
    );
    expect(idempotency.describeState(run([reg('o1')]).state)).toBe(
      'pending(fingerprint="fp1", owner="o1", lease of op 1)',
    );
  });
});
