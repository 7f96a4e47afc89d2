import { describe, expect, it } from 'vitest';
import {
  breaksPairing,
  firstKey,
  isDataCommand,
  isPlainRead,
  isPlainWrite,
  ruleName,
} from '../../../src/resp/commands.ts';

const args = (...words: string[]) => words.map((w) => Buffer.from(w));

describe('what a rule can aim at in a command', () => {
  it('names script calls once, whether ioredis sent the body or the digest', () => {
    expect(['eval', 'EVALSHA', 'EvalSha'].map(ruleName)).toEqual(['EVALSHA', 'EVALSHA', 'EVALSHA']);
    expect(ruleName('get')).toBe('GET');
  });

  it('finds the first key of data commands, scripts and functions, and none of control commands', () => {
    expect(firstKey('GET', args('GET', 'k'))?.toString()).toBe('k');
    expect(firstKey('EVALSHA', args('EVALSHA', 'abc', '2', '{t}:a', '{t}:b'))?.toString()).toBe('{t}:a');
    expect(firstKey('EVALSHA', args('EVALSHA', 'abc', '0'))).toBeUndefined();
    expect(firstKey('FCALL', args('FCALL', 'f', '1', 'k'))?.toString()).toBe('k');
    expect(firstKey('CLUSTER', args('CLUSTER', 'SLOTS'))).toBeUndefined();
    expect(isDataCommand('PING')).toBe(false);
    expect(isDataCommand('PEXPIRE')).toBe(true);
  });

  it('tells plain reads (held on their reply) from plain writes (held before Redis) and scripts (either)', () => {
    expect(['GET', 'HGET', 'PTTL', 'EXISTS'].map(isPlainRead)).toEqual([true, true, true, true]);
    expect(['DEL', 'SET', 'EVALSHA', 'INCR'].map(isPlainRead)).toEqual([false, false, false, false]);
    expect(['DEL', 'SET', 'PEXPIRE', 'INCR'].map(isPlainWrite)).toEqual([true, true, true, true]);
    expect(['GET', 'EVALSHA', 'FCALL', 'PING'].map(isPlainWrite)).toEqual([false, false, false, false]);
  });

  it('stops pairing replies only where a connection stops answering one to one', () => {
    // ioredis sends CLIENT SETINFO on every connection: that must not switch the point off.
    expect(breaksPairing('CLIENT', args('CLIENT', 'SETINFO', 'lib-name', 'ioredis'))).toBe(false);
    expect(breaksPairing('CLIENT', args('CLIENT', 'reply', 'off'))).toBe(true);
    expect(breaksPairing('SUBSCRIBE', args('SUBSCRIBE', 'ch'))).toBe(true);
    expect(breaksPairing('GET', args('GET', 'k'))).toBe(false);
  });
});
