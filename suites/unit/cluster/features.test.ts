import { describe, expect, it } from 'vitest';
import { featuresText, probeNode, serverIdentity, serverText } from '../../../src/cluster/features.ts';

const REDIS_62 = '# Server\r\nredis_version:6.2.5\r\nredis_mode:cluster\r\n';
const VALKEY_81 = '# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.1.8\r\n';

describe('the server probes read what the node says', () => {
  it('names Valkey by valkey_version, not the redis_version it answers for old clients', () => {
    expect(serverIdentity(VALKEY_81, 'mem_allocator:libc\r\n')).toEqual({
      name: 'valkey',
      version: '8.1.8',
      allocator: 'libc',
    });
    expect(serverIdentity(REDIS_62, '# Memory\r\nmem_allocator:jemalloc-5.1.0\r\n')).toEqual({
      name: 'redis',
      version: '6.2.5',
      allocator: 'jemalloc-5.1.0',
    });
    expect(serverIdentity(REDIS_62, '')).toMatchObject({ allocator: 'unknown' });
    expect(() => serverIdentity('# Server\r\n', '')).toThrow(/INFO server names no version/);
  });

  it('reads a refusal as a missing feature and an answer as a present one', async () => {
    const node =
      (answers: Record<string, unknown>) =>
      async (...args: (string | number)[]) => {
        const key = args[0] === 'EVAL' ? (String(args[1]).startsWith('#!lua') ? 'shebang' : 'time') : args.join(' ');
        const answer = answers[key];
        if (answer instanceof Error) throw answer;
        return answer;
      };
    const old = node({
      'INFO server': REDIS_62,
      'INFO memory': 'mem_allocator:jemalloc-5.1.0',
      'FUNCTION LIST': new Error("ERR unknown command 'function'"),
      shebang: new Error("ERR Error compiling script (new function): user_script:1: unexpected symbol near '#'"),
      'INFO stats': 'total_commands_processed:9',
      time: 0,
    });
    expect(await probeNode(old)).toEqual({
      name: 'redis',
      version: '6.2.5',
      allocator: 'jemalloc-5.1.0',
      features: { functions: false, shebangFlags: false, evictsScripts: false, frozenTime: false },
    });
    const valkey = node({
      'INFO server': VALKEY_81,
      'INFO memory': 'mem_allocator:libc',
      'FUNCTION LIST': [],
      shebang: 1,
      'INFO stats': 'evicted_scripts:0',
      time: 1,
    });
    expect((await probeNode(valkey)).features).toEqual({
      functions: true,
      shebangFlags: true,
      evictsScripts: true,
      frozenTime: true,
    });
  });

  it('writes the server and its features in words', () => {
    expect(serverText({ name: 'valkey', version: '8.1.8', allocator: 'libc' })).toBe('Valkey 8.1.8 (libc)');
    expect(featuresText({ functions: true, shebangFlags: true, evictsScripts: false, frozenTime: true })).toBe(
      'Functions, shebang flags, frozen TIME',
    );
    expect(featuresText({ functions: false, shebangFlags: false, evictsScripts: false, frozenTime: false })).toBe(
      'none of Functions, shebang flags, script eviction, frozen TIME',
    );
  });
});
