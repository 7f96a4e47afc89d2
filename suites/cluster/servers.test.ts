import { describe, expect, it } from 'vitest';
import { probeServer, type ServerInfo } from '../../src/cluster/features.ts';
import { busyBursts } from '../../src/faults/busy-bursts.ts';
import { LocalCluster } from '../../src/cluster/local.ts';
import { installedServer, resolveServer, type ServerName } from '../../src/cluster/servers.ts';
import { createReferenceSubject } from '../../src/impl/reference.ts';
import { LockClient } from '../../src/patterns/lock/client.ts';
import { keySlot } from '../../src/resp/key-slot.ts';

// One 3+3 cluster of every named server: it starts, answers through the client proxies, and the
// probes read its version, allocator and features from the running node (docs/servers.md has the
// same table, measured by hand on standalone servers). A server not installed here skips with the
// line that installs it; CI's bootstrap installs them all (.ci/run). On each, the reference lock's
// scripts (which start with #!lua) load and answer, and the Functions door opens only where the
// probes found Functions (6.2: refused in one line), and the clock preload moves its wall clock.

const EXPECTED: Record<ServerName, ServerInfo> = {
  'redis-6.2': {
    name: 'redis',
    version: '6.2.5',
    allocator: 'jemalloc-5.1.0',
    features: { functions: false, shebangFlags: false, evictsScripts: false, frozenTime: false },
  },
  'redis-7.0': {
    name: 'redis',
    version: '7.0.15',
    allocator: 'jemalloc-5.3.0',
    features: { functions: true, shebangFlags: true, evictsScripts: false, frozenTime: false },
  },
  'redis-7.4': {
    name: 'redis',
    version: '7.4.1',
    allocator: 'jemalloc-5.3.0',
    features: { functions: true, shebangFlags: true, evictsScripts: true, frozenTime: true },
  },
  'redis-8.2': {
    name: 'redis',
    version: '8.2.3',
    allocator: 'jemalloc-5.3.0',
    features: { functions: true, shebangFlags: true, evictsScripts: true, frozenTime: true },
  },
  'valkey-8.1': {
    name: 'valkey',
    version: '8.1.8',
    allocator: 'libc',
    features: { functions: true, shebangFlags: true, evictsScripts: true, frozenTime: true },
  },
};

describe('every named server runs a cluster of the harness', () => {
  for (const [name, expected] of Object.entries(EXPECTED) as [ServerName, ServerInfo][]) {
    const installed = name === 'redis-7.0' || installedServer(name) !== undefined;
    const title = `${name}: a 3+3 cluster starts, answers, and its probes say ${expected.name} ${expected.version} (${expected.allocator})`;
    it.skipIf(!installed)(
      installed ? title : `${title} [skipped: not installed; run bash scripts/bootstrap.sh --servers ${name}]`,
      async () => {
        const { binary } = resolveServer({ kind: 'name', name });
        await using cluster = await LocalCluster.start({ redisServer: binary });
        const client = cluster.connect();
        try {
          await client.set(`{servers-${name}}`, name);
          expect(await client.get(`{servers-${name}}`)).toBe(name);
          expect(await probeServer(cluster)).toEqual(expected);
          const lock = await LockClient.open(client);
          const token = lock.newToken();
          expect(await lock.acquire(`lock:{servers-${name}}`, token, 10_000)).toBe(true);
          expect(await lock.release(`lock:{servers-${name}}`, token)).toBe('done');
          // The busy-script fault's threshold is set and put back on every server (6.2 knows only lua-time-limit).
          await busyBursts(cluster, [0], { ms: 150, burstMs: 100, gapMs: 50 });
          expect(await cluster.command(0, 'CONFIG', 'GET', 'lua-time-limit')).toEqual(['lua-time-limit', '5000']);
          // The clock faults reach every server: its wall clock moves while it runs (TIME, and a lease
          // set before the step ends that much early), whatever its allocator (libfaketime hangs jemalloc ones).
          const [s0] = (await cluster.command(0, 'TIME')) as [string, string];
          const onNode0 = Array.from({ length: 100 }, (_, i) => `{servers-clock-${i}}`).find(
            (k) => keySlot(k) <= 5460,
          )!;
          await cluster.command(0, 'SET', onNode0, 'held', 'PX', 60_000);
          cluster.clocks!.set(0, { offsetMs: 50_000 });
          const [s1] = (await cluster.command(0, 'TIME')) as [string, string];
          expect(Number(s1) - Number(s0)).toBeGreaterThanOrEqual(49);
          expect(Number(await cluster.command(0, 'PTTL', onNode0))).toBeLessThanOrEqual(10_000);
          cluster.clocks!.reset();
          const functions = createReferenceSubject('idempotency', client, { mode: 'fcall' });
          if (expected.features.functions) await expect(functions).resolves.toBeDefined();
          else
            await expect(functions).rejects.toThrow(
              /^cannot load \S+library\.lua on \S+: this server has no Functions \(FUNCTION LOAD answered "ERR unknown command[^"]*"\); Functions need Redis 7\.0 or later, or use EVALSHA$/,
            );
        } finally {
          client.disconnect();
        }
      },
    );
  }
});
