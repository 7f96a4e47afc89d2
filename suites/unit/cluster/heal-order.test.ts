// The order of healCluster's steps and its fallback when /reset fails, on a recording stand-in for the
// Toxiproxy client and the node operations (the real cluster cases: suites/cluster/heal-frozen.test.ts
// and toxiproxy-restart.full.test.ts).
import { describe, expect, it } from 'vitest';
import { healCluster } from '../../../src/cluster/heal.ts';

function recorder(options: { resetFails?: boolean; restartable?: boolean; restartFails?: boolean; dead?: boolean }) {
  const calls: string[] = [];
  const toxiproxy = {
    restartable: options.restartable ?? true,
    alive: !options.dead,
    reset: async () => {
      calls.push('reset');
      if (options.resetFails) throw new Error('toxiproxy POST /reset: The operation was aborted due to timeout');
    },
    restart: async () => {
      calls.push('restart');
      if (options.restartFails) throw new Error('toxiproxy-server did not answer');
    },
  };
  const ops = {
    thaw: async (n: number) => void calls.push(`thaw ${n}`),
    restart: async (n: number) => void calls.push(`restart ${n}`),
    waitReady: async () => void calls.push('ready'),
    topology: async () => 'n0 master',
  };
  const nodes = [
    { index: 0, status: 'running' },
    { index: 1, status: 'frozen' },
    { index: 2, status: 'killed' },
  ];
  return { calls, heal: () => healCluster(toxiproxy, nodes, ops) };
}

describe('healCluster', () => {
  it('thaws frozen nodes, then resets Toxiproxy, then restarts killed nodes, then waits', async () => {
    const { calls, heal } = recorder({});
    await heal();
    expect(calls).toEqual(['thaw 1', 'reset', 'restart 2', 'ready']);
  });

  it('restarts a Toxiproxy it started when /reset fails, and heals on', async () => {
    const { calls, heal } = recorder({ resetFails: true });
    await heal();
    expect(calls).toEqual(['thaw 1', 'reset', 'restart', 'restart 2', 'ready']);
  });

  it("keeps /reset's error for a Toxiproxy it did not start", async () => {
    const { calls, heal } = recorder({ resetFails: true, restartable: false });
    await expect(heal()).rejects.toThrow('toxiproxy POST /reset: The operation was aborted due to timeout');
    expect(calls).toEqual(['thaw 1', 'reset']);
  });

  it("keeps /reset's error for a Toxiproxy that died: the environment failed, the job ends and says so", async () => {
    const { calls, heal } = recorder({ resetFails: true, dead: true });
    await expect(heal()).rejects.toThrow('toxiproxy POST /reset: The operation was aborted due to timeout');
    expect(calls).toEqual(['thaw 1', 'reset']);
  });

  it('names both failures when the restart fails too', async () => {
    const { heal } = recorder({ resetFails: true, restartFails: true });
    await expect(heal()).rejects.toThrow(
      'aborted due to timeout; restarting toxiproxy failed too: toxiproxy-server did not answer',
    );
  });
});
