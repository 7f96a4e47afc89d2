import { describe, expect, it } from 'vitest';
import { parseInfo } from '../../../src/resp/info.ts';

describe('parseInfo', () => {
  it('reads INFO fields', () => {
    expect(parseInfo('# Memory\r\nused_memory:1024\r\nmaxmemory:0\r\n')).toEqual({
      used_memory: '1024',
      maxmemory: '0',
    });
  });
});
