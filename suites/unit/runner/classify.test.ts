import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../src/runner/classify.ts';

describe('classifyError', () => {
  it.each([
    'NOSCRIPT No matching script. Please use EVAL.',
    'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.',
    'MOVED 3999 127.0.0.1:6381',
    'CLUSTERDOWN The cluster is down',
    'READONLY You cannot write against a read only replica.',
  ])('a refusal before the command ran is a certain failure: %s', (message) => {
    expect(classifyError(new Error(message))).toBe('fail');
  });

  it.each([
    'Command timed out',
    'Connection is closed.',
    // ioredis counts retries after a dropped connection towards this limit: an earlier attempt may have run.
    'Too many Cluster redirections. Last error: Error: Connection is closed.',
    'Too many Cluster redirections. Last error: ReplyError: MOVED 10513 127.0.0.1:39961',
    'ERR something nobody has seen',
  ])('anything else is indeterminate: %s', (message) => {
    expect(classifyError(new Error(message))).toBe('info');
  });

  it('judges a thrown non-Error by its text', () => {
    expect(classifyError('BUSY Redis is busy')).toBe('fail');
  });
});
