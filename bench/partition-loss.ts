// Acknowledged writes lost to partition failovers, without WAIT and with WAIT 1, on the netns
// backend (root). Each failover: the master of one shard is cut off from every other node
// (partition-one) for three node timeouts while one client writes distinct keys to it as fast as it
// answers; the majority promotes the replica; after the heal every write the client counted as
// acknowledged is read back. Without WAIT a write counts when SET answers OK; with WAIT, when
// `WAIT 1 <timeout>` on the same connection then says at least one replica has it. The modes alternate.
// Prints each failover and the totals per 1,000 failovers.
// Run: npx tsx bench/partition-loss.ts [failovers per mode=10] [wait timeout ms=100]
import { Redis } from 'ioredis';
import { NetnsCluster } from '../src/cluster/netns/cluster.ts';
import { nodeFor } from '../src/faults/target.ts';
import { keySlot } from '../src/resp/key-slot.ts';

const perMode = Number(process.argv[2] ?? 10);
const waitTimeoutMs = Number(process.argv[3] ?? 100);
const NODE_TIMEOUT_MS = 1_000;
console.log(`npx tsx bench/partition-loss.ts ${perMode} ${waitTimeoutMs}`);
console.log(
  `${perMode} failovers per mode (no-wait, wait-1 with WAIT 1 ${waitTimeoutMs}), alternated; node timeout ${NODE_TIMEOUT_MS} ms; netns backend (root)`,
);

type Mode = 'no-wait' | 'wait-1';
const totals: Record<Mode, { failovers: number; acked: number; lost: number; attempts: number }> = {
  'no-wait': { failovers: 0, acked: 0, lost: 0, attempts: 0 },
  'wait-1': { failovers: 0, acked: 0, lost: 0, attempts: 0 },
};

const cluster = await NetnsCluster.start({ nodeTimeoutMs: NODE_TIMEOUT_MS });
const reader = cluster.connect();
try {
  for (let round = 0; round < perMode * 2; round++) {
    const mode: Mode = round % 2 === 0 ? 'no-wait' : 'wait-1';
    const tag = `{loss${round}}`;
    const slot = keySlot(tag);
    const before = await cluster.topology();
    const master = nodeFor(before, slot, 'master')!;
    const [host, port] = cluster.nodes[master].client.split(':');
    // One connection to the old master: WAIT counts the replicas of writes made on its own connection.
    const writer = new Redis({
      host,
      port: Number(port),
      maxRetriesPerRequest: 0,
      commandTimeout: 2_000,
      retryStrategy: () => null,
    });
    writer.on('error', () => undefined);
    await writer.ping();
    const others = cluster.nodes.map((n) => n.index).filter((i) => i !== master);
    await cluster.partitions.cut(
      new Map([[master, others], ...others.map((o) => [o, [master]] as [number, number[]])]),
    );
    const acked: string[] = [];
    let attempts = 0;
    const until = performance.now() + NODE_TIMEOUT_MS * 3;
    while (performance.now() < until) {
      const key = `${tag}:${attempts++}`;
      try {
        await writer.set(key, 'v');
        if (mode === 'wait-1' && Number(await writer.call('WAIT', '1', String(waitTimeoutMs))) < 1) continue;
        acked.push(key);
      } catch {
        await new Promise((r) => setTimeout(r, 10)); // CLUSTERDOWN once the master knows it is alone
      }
    }
    writer.disconnect();
    await cluster.heal();
    const after = await cluster.topology();
    const failedOver = nodeFor(after, slot, 'master') !== master;
    let lost = 0;
    for (const key of acked) if ((await reader.get(key)) === null) lost++;
    console.log(
      `${mode} round ${round}: ${failedOver ? 'failed over' : 'NO failover'}, ${attempts} writes tried, ${acked.length} acknowledged, ${lost} lost`,
    );
    if (!failedOver) continue;
    const t = totals[mode];
    t.failovers++;
    t.acked += acked.length;
    t.lost += lost;
    t.attempts += attempts;
  }
} finally {
  reader.disconnect();
  await cluster.dispose();
}
for (const [mode, t] of Object.entries(totals)) {
  const per1000 = t.failovers ? Math.round((t.lost / t.failovers) * 1000) : NaN;
  console.log(
    `${mode}: ${t.failovers} partition failovers, ${t.attempts} writes tried, ${t.acked} acknowledged, ${t.lost} lost = ${per1000.toLocaleString('en-US')} acknowledged writes lost per 1,000 failovers`,
  );
}
