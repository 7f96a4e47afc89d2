import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { durabilityFlag } from '../../../src/cli/durability-flag.ts';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

describe('--durability wait:N:TIMEOUT', () => {
  it('parses into the replicas and the timeout, once', () => {
    expect(durabilityFlag('run', 'wait:1:100')).toEqual({ replicas: 1, timeoutMs: 100 });
    expect(durabilityFlag('certify', 'wait:2:5000')).toEqual({ replicas: 2, timeoutMs: 5_000 });
    expect(durabilityFlag('run', undefined)).toBeUndefined();
  });

  it.each(['wait:0:100', 'wait:1:0', 'wait:1', 'WAIT:1:100', 'wait:1:100ms', 'wait:-1:100', 'wait:1:20000', 'sync'])(
    'refuses %s naming the flag',
    (value) => {
      expect(() => durabilityFlag('certify', value)).toThrow(/^certify: --durability must be wait:N:TIMEOUT .*got '/);
    },
  );

  describe('through the CLI: one line, exit 2, before any cluster starts', () => {
    let attempts: string[];
    beforeEach(() => {
      attempts = forbidClusters();
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it.each([['run'], ['certify']])('%s --durability wait:0:100', async (command) => {
      const argv =
        command === 'run'
          ? ['run', '--durability', 'wait:0:100']
          : ['certify', '--impl', 'lua:lua/idempotency', '--durability', 'wait:0:100'];
      const r = await cli(argv);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^chaoslua: ${command}: --durability must be wait:N:TIMEOUT`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(attempts).toEqual([]);
    });
  });
});
