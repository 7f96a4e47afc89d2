import { describe, expect, it } from 'vitest';
import { answerHit } from '../../../src/patterns/idempotency/execute.ts';
import { parseRegistration } from '../../../src/patterns/idempotency/replies.ts';
import { parseMatchReply } from '../../../src/patterns/lock/client.ts';
import { UnexpectedReplyError, zeroOrOne } from '../../../src/scripts/replies.ts';

describe('parseRegistration', () => {
  it('reads fresh and both kinds of hit', () => {
    expect(parseRegistration(['fresh'])).toEqual({ kind: 'fresh' });
    expect(parseRegistration(['hit', 'pending', 'fp', '', ''])).toEqual({
      kind: 'hit',
      state: 'pending',
      fingerprint: 'fp',
      status: null,
      body: '',
    });
    expect(parseRegistration(['hit', 'completed', 'fp', '201', '{"id":1}'])).toEqual({
      kind: 'hit',
      state: 'completed',
      fingerprint: 'fp',
      status: 201,
      body: '{"id":1}',
    });
  });

  it('refuses off-contract replies with the reply in the message', () => {
    expect(() => parseRegistration(1)).toThrow(UnexpectedReplyError);
    expect(() => parseRegistration(['hit', '', 'fp', '', ''])).toThrow(/\["hit", "", "fp", "", ""\]/);
    expect(() => parseRegistration(['hit', 'completed', 'fp', 'abc', ''])).toThrow(/integer status/);
    expect(() => parseRegistration(['fresh', 'extra'])).toThrow(UnexpectedReplyError);
  });
});

describe('answerHit', () => {
  const completed = { kind: 'hit', state: 'completed', fingerprint: 'fp-a', status: 201, body: 'stored' } as const;

  it('replays a completed record of the same request', () => {
    expect(answerHit(completed, 'fp-a')).toEqual({ kind: 'replayed', response: { status: 201, body: 'stored' } });
  });

  it("never replays another request's response: a different fingerprint is a conflict, completed or not", () => {
    expect(answerHit(completed, 'fp-b')).toEqual({ kind: 'conflict', storedFingerprint: 'fp-a' });
    expect(answerHit({ ...completed, state: 'pending', status: null, body: '' }, 'fp-b').kind).toBe('conflict');
  });

  it('reports a pending record of the same request as in progress', () => {
    expect(answerHit({ ...completed, state: 'pending', status: null, body: '' }, 'fp-a')).toEqual({
      kind: 'in-progress',
    });
  });
});

describe('small replies', () => {
  it('zeroOrOne accepts exactly 0 and 1', () => {
    expect(zeroOrOne('renew', 1)).toBe(true);
    expect(zeroOrOne('renew', 0)).toBe(false);
    expect(() => zeroOrOne('renew', '1')).toThrow(/renew answered "1"/);
    expect(() => zeroOrOne('renew', null)).toThrow(/nil/);
  });

  it('parseMatchReply maps nil, -1, 0, 1', () => {
    expect([null, -1, 0, 1].map((r) => parseMatchReply('remove_if_matches', r))).toEqual([
      'absent',
      'other-token',
      'no-effect',
      'done',
    ]);
    expect(() => parseMatchReply('remove_if_matches', 2)).toThrow(UnexpectedReplyError);
  });
});
