// The clock preload on a real cluster: a master's wall clock moved while it runs ends a lease early
// (forward) or late (back) by the offset, TIME reads the offset, the monotonic side (cluster state,
// replication) carries on, and the one heal sets every clock true. The TTL replicates as an instant,
// so a replica promoted with its clock ahead expires its old master's lease early: both sides of a failover.
import { beforeAll, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { sharedCluster } from '../support/shared-cluster.ts';

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});

async function shard() {
  const topology = await cluster.topology();
  const master = topology.nodes.find((n) => n.role === 'master')!;
  const replica = topology.nodes.find((n) => n.masterIndex === master.node.index)!;
  const key = Array.from({ length: 1000 }, (_, i) => `server-clocks:${i}`).find((k) =>
    master.slots.some(([a, b]) => a <= keySlot(k) && keySlot(k) <= b),
  )!;
  return { master: master.node.index, replica: replica.node.index, key };
}

const serverMs = async (node: number) => {
  const [s, us] = (await cluster.command(node, 'TIME')) as [string, string];
  return Number(s) * 1000 + Number(us) / 1000;
};

it('every node of a local cluster runs under the clock preload', () => {
  expect(cluster.clocks).toBeDefined();
});

it("a master's clock stepped forward ends a lease that much early; TIME reads it; the heal sets it true", async () => {
  const { master, key } = await shard();
  await cluster.command(master, 'SET', key, 'held', 'PX', 60_000);
  const before = (await serverMs(master)) - Date.now();
  cluster.clocks!.set(master, { offsetMs: 50_000 });
  expect(cluster.clocks!.offsetMs(master)).toBe(50_000);
  const ahead = (await serverMs(master)) - Date.now();
  expect(ahead - before).toBeGreaterThan(49_000);
  expect(ahead - before).toBeLessThan(51_000);
  const pttl = Number(await cluster.command(master, 'PTTL', key));
  expect(pttl).toBeGreaterThan(5_000);
  expect(pttl).toBeLessThanOrEqual(10_000);
  cluster.clocks!.set(master, { offsetMs: 65_000 });
  expect(await cluster.command(master, 'GET', key)).toBeNull();

  await cluster.heal();
  expect(cluster.clocks!.offsetMs(master)).toBe(0);
  expect(Math.abs((await serverMs(master)) - Date.now())).toBeLessThan(1_000);
});

it('a clock stepped back after a lease was set keeps it past its end, until the heal sets the clock true', async () => {
  const { master, key } = await shard();
  // A second's lease, so that a stall between the SET and the step cannot end it first.
  await cluster.command(master, 'SET', key, 'held', 'PX', 1_000);
  cluster.clocks!.set(master, { offsetMs: -10_000 });
  await new Promise((r) => setTimeout(r, 1_500));
  expect(await cluster.command(master, 'GET', key)).toBe('held');
  await cluster.heal();
  expect(await cluster.command(master, 'GET', key)).toBeNull();
  // Only the change between setting and expiring counts: a lease set under the offset lasts its length.
  cluster.clocks!.set(master, { offsetMs: -10_000 });
  await cluster.command(master, 'SET', key, 'held', 'PX', 200);
  await new Promise((r) => setTimeout(r, 400));
  expect(await cluster.command(master, 'GET', key)).toBeNull();
  await cluster.heal();
});

it('a replica promoted with its clock ahead expires the lease its old master set, early', async () => {
  const { master, replica, key } = await shard();
  await cluster.command(master, 'SET', key, 'held', 'PX', 30_000);
  await cluster.command(master, 'WAIT', 1, 2_000);
  cluster.clocks!.set(replica, { offsetMs: 40_000 });
  await cluster.failover(replica, 'default');
  expect(await cluster.command(replica, 'GET', key)).toBeNull();
  await cluster.heal();
});
