import { beforeAll, describe, expect, it } from 'vitest';
import { parseInfo } from '../../src/resp/info.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import type { Topology } from '../../src/cluster/types.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { sharedCluster } from '../support/shared-cluster.ts';

// A restarted node must come back empty (persistence is off: that is the hazard kill-restart
// exercises). It once did not: a replica's full sync writes the received snapshot to dump.rdb in
// the cluster's directory, which all nodes shared, and a node started later loaded it. A master that
// loaded keys of another shard's slot put that slot in "importing" state (Redis's startup check of
// data against slots), gossip never rebinds an importing slot, and once that shard failed over the
// node saw the slot unassigned for good: "heal failed: n2 sees 16383 slots assigned".

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});

const masterOf = (t: Topology, slot: number) =>
  t.nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => a <= slot && slot <= b))!;

/** A key whose slot another shard than `notOf` serves. */
function keyOutside(t: Topology, notOf: number): string {
  for (let i = 0; ; i++)
    if (masterOf(t, keySlot(`{restart-empty-${i}}`)).node.index !== notOf) return `{restart-empty-${i}}`;
}

describe('kill and restart', () => {
  it('a restarted master comes back empty after another shard full-synced a replica, and that shard fails over cleanly', async () => {
    const before = await cluster.topology();
    const restarted = masterOf(before, 0);
    const key = keyOutside(before, restarted.node.index);
    const owner = masterOf(before, keySlot(key));
    const ownerReplica = before.nodes.find((n) => n.masterIndex === owner.node.index)!;

    await cluster.command(owner.node.index, 'SET', key, 'v');
    // A replica restarted empty asks for a full sync: the shard's keys cross to it as a snapshot.
    await cluster.kill(ownerReplica.node.index);
    await cluster.restart(ownerReplica.node.index);
    await cluster.waitReady();
    await cluster.command(ownerReplica.node.index, 'READONLY');
    expect(await cluster.command(ownerReplica.node.index, 'GET', key), 'the replica resynced').toBe('v');

    // Restarted well inside the node timeout: no failover, it comes back as the same master.
    await cluster.kill(restarted.node.index);
    await cluster.restart(restarted.node.index);
    expect(await cluster.command(restarted.node.index, 'DBSIZE'), 'keys on the restarted master').toBe(0);
    await cluster.waitReady();

    await cluster.failover(ownerReplica.node.index, 'default');
    await cluster.heal();
    for (const node of cluster.nodes) {
      expect(
        parseInfo(String(await cluster.command(node.index, 'CLUSTER', 'INFO'))).cluster_slots_assigned,
        `${node.name}'s slot table`,
      ).toBe('16384');
    }
  });
});
