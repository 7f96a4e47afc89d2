import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComposeCluster } from '../../src/cluster/compose.ts';
import { dockerSkipMessage, dockerStatus } from '../../src/cluster/docker.ts';
import type { Topology } from '../../src/cluster/types.ts';

// Without a Docker engine every test here is a visible skip carrying the reason, never a pass.
const docker = await dockerStatus();
const skip = docker.available ? '' : dockerSkipMessage(docker.reason);
if (skip) console.warn(skip);
const title = (what: string) => (skip ? `${what} [${skip}]` : what);

let cluster: ComposeCluster | undefined;
beforeAll(async () => {
  if (docker.available) cluster = await ComposeCluster.start();
}, 900_000);
afterAll(async () => {
  await cluster?.dispose();
}, 120_000);

const the = () => {
  if (!cluster) throw new Error('compose cluster did not start');
  return cluster;
};
const masterOf = (t: Topology, slot: number) =>
  t.nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => a <= slot && slot <= b));

describe('compose backend', () => {
  it.skipIf(!docker.available)(
    title('is ready: 3 masters covering every slot, each with one replica, all announcing toxiproxy'),
    async () => {
      const c = the();
      const t = await c.topology();
      const masters = t.nodes.filter((n) => n.role === 'master');
      expect(masters).toHaveLength(3);
      expect(masters.flatMap((m) => m.slots).reduce((sum, [a, b]) => sum + b - a + 1, 0)).toBe(16384);
      for (const m of masters) expect(t.nodes.filter((n) => n.masterIndex === m.node.index)).toHaveLength(1);
      expect(Object.keys(c.natMap()).sort()).toEqual(c.nodes.map((n) => n.announced).sort());
      expect(await c.redisVersion()).toMatch(/^7\./);
    },
  );

  it.skipIf(!docker.available)(
    title('serves keys written through the client proxies (natMap) and readable back'),
    async () => {
      const redis = the().connect();
      try {
        for (let i = 0; i < 30; i++) await redis.set(`{smoke:${i}}`, String(i));
        for (let i = 0; i < 30; i++) expect(await redis.get(`{smoke:${i}}`)).toBe(String(i));
      } finally {
        redis.disconnect();
      }
    },
  );

  it.skipIf(!docker.available)(title('SCRIPT FLUSH reaches every node'), async () => {
    const c = the();
    const sha = String(await c.command(0, 'SCRIPT', 'LOAD', 'return 1'));
    await Promise.all(c.nodes.map((n) => c.command(n.index, 'SCRIPT', 'LOAD', 'return 1')));
    await c.scriptFlush();
    for (const n of c.nodes) expect(await c.command(n.index, 'SCRIPT', 'EXISTS', sha)).toEqual([0]);
  });

  it.skipIf(!docker.available)(
    title('a default failover moves slot 0 to the replica, and heal() returns to ready'),
    async () => {
      const c = the();
      const before = await c.topology();
      const master = masterOf(before, 0)!;
      const replica = before.nodes.find((n) => n.masterIndex === master.node.index)!;
      await c.failover(replica.node.index, 'default');
      expect(masterOf(await c.topology(), 0)?.node.index).toBe(replica.node.index);
      await c.heal();
    },
  );

  it.skipIf(!docker.available)(
    title('a toxic and a disabled proxy take effect through the Toxiproxy API, and heal() removes them'),
    async () => {
      const c = the();
      const key = 'x{06S}'; // '06S' hashes to slot 0
      const slot0 = masterOf(await c.topology(), 0)!.node.index;
      const redis = c.connect();
      try {
        await redis.set(key, '1');
        await c.toxic(slot0, 'client', { type: 'latency', attributes: { latency: 300 } });
        const started = Date.now();
        await redis.get(key);
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
        await c.setProxyEnabled(slot0, 'client', false);
        const outcome = await Promise.race([
          redis.get(key).then(
            () => 'answered',
            () => 'failed',
          ),
          new Promise((resolve) => setTimeout(() => resolve('no answer'), 1_500)),
        ]);
        expect(outcome).not.toBe('answered');
      } finally {
        redis.disconnect();
      }
      await c.heal();
      const fresh = c.connect();
      try {
        expect(await fresh.get(key)).toBe('1');
      } finally {
        fresh.disconnect();
      }
    },
  );

  it.skipIf(!docker.available)(
    title(
      'freeze (docker pause) makes the replica take over; kill and restart bring the node back; heal() returns to ready',
    ),
    async () => {
      const c = the();
      const before = await c.topology();
      const master = masterOf(before, 0)!;
      const replica = before.nodes.find((n) => n.masterIndex === master.node.index)!;
      await c.freeze(master.node.index);
      await expect
        .poll(async () => masterOf(await c.topology(), 0)?.node.index, { timeout: 20_000, interval: 200 })
        .toBe(replica.node.index);
      await c.kill(master.node.index);
      await c.restart(master.node.index);
      expect(await c.command(master.node.index, 'PING')).toBe('PONG');
      await c.heal();
      expect((await c.topology()).nodes.filter((n) => n.role === 'replica')).toHaveLength(3);
    },
  );
});
