// heal() when Toxiproxy's control port no longer answers: /reset spends its four tries (about 42 s),
// then the server is killed and a new one started on the same ports with the same proxies. Here the
// server is stopped with SIGSTOP, which hangs every API call as Shopify/toxiproxy#558 does; without
// the restart the heal ends with "toxiproxy POST /reset: The operation was aborted due to timeout".
// In test:full: the tries take their 42 s.
import { beforeAll, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('a Toxiproxy that hangs is restarted by the heal, its proxies and the cluster back as before', async () => {
  const topology = String(await cluster.topology());
  const master = (await cluster.topology()).nodes.find((n) => n.role === 'master')!;
  await cluster.toxic(master.node.index, 'client', { type: 'latency', attributes: { latency: 100, jitter: 0 } });
  const hung = cluster.toxiproxyPid!;
  process.kill(hung, 'SIGSTOP');

  await cluster.heal();

  expect(alive(hung)).toBe(false);
  expect(cluster.toxiproxyPid).not.toBe(hung);
  // The new server has every proxy, on, and answers its API: a toxic can be put on a link again.
  await cluster.toxic(master.node.index, 'internal', { type: 'latency', attributes: { latency: 1, jitter: 0 } });
  await cluster.heal();
  // While the server was hung, gossip through its bus proxies stopped and replicas may have taken
  // over (a failover, not a fault of the heal): the shards are what must come back, whoever leads them.
  const shards = (t: string) =>
    t
      .split(' | ')
      .map((s) => s.replace(/^n\d+ master /, '').replace(/ <- n\d+$/, ''))
      .sort();
  const healed = await cluster.topology();
  expect(shards(String(healed))).toEqual(shards(topology));
  expect(healed.nodes.filter((n) => n.role === 'replica')).toHaveLength(3);
  // Replication runs through the internal proxies again.
  for (const replica of (await cluster.topology()).nodes.filter((n) => n.role === 'replica')) {
    expect(String(await cluster.command(replica.node.index, 'INFO', 'replication'))).toContain('master_link_status:up');
  }
}, 120_000);
