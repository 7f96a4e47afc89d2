// heal() with a frozen node behind a toxic link whose buffers are full. Toxiproxy removes a toxic only
// once the toxic has handed on what it holds, and a frozen node reads nothing: a heal that reset
// Toxiproxy before thawing waited on the node it had yet to thaw, and /reset timed out (42.7 s, then
// "the cluster could not be healed", on this machine with the reset first; a lock soak of seed
// 20261207 ended so). src/cluster/heal.ts thaws first.
import { beforeAll, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { sharedCluster } from '../support/shared-cluster.ts';

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});

it('heals a frozen replica whose replication link holds a toxic and more than its buffers take', async () => {
  const before = await cluster.topology();
  const master = before.nodes.find((n) => n.role === 'master')!;
  const replica = before.nodes.find((n) => n.masterIndex === master.node.index)!;
  const served = (key: string) => master.slots.some(([a, b]) => a <= keySlot(key) && keySlot(key) <= b);
  const keys = Array.from({ length: 4000 }, (_, i) => `heal-frozen:${i}`)
    .filter(served)
    .slice(0, 40);
  expect(keys).toHaveLength(40);

  // The replica reads its master's stream through the master's internal proxy (downstream).
  await cluster.toxic(master.node.index, 'internal', {
    type: 'latency',
    stream: 'downstream',
    attributes: { latency: 50, jitter: 0 },
  });
  await cluster.freeze(replica.node.index);
  const value = 'x'.repeat(1 << 20);
  for (const key of keys) await cluster.command(master.node.index, 'SET', key, value);
  // 40 MiB for a replica that reads nothing: most of it is still owed when the heal starts (the
  // replica's last acknowledged offset lags the master's by more than the kernel's and the proxy's
  // buffers can hold), so the link into it is full.
  const replication = String(await cluster.command(master.node.index, 'INFO', 'replication'));
  const masterOffset = Number(/master_repl_offset:(\d+)/.exec(replication)![1]);
  const replicaOffset = Number(/slave\d+:[^\n]*offset=(\d+)/.exec(replication)![1]);
  expect(masterOffset - replicaOffset).toBeGreaterThan(20 << 20);

  await cluster.heal();
  const after = await cluster.topology();
  expect(after.nodes.find((n) => n.node.index === replica.node.index)!.role).toBe('replica');
});
