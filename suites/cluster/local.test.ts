import { beforeAll, describe, expect, it } from 'vitest';
import { parseInfo } from '../../src/resp/info.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import type { Topology } from '../../src/cluster/types.ts';
import { busyBursts, busyScript } from '../../src/faults/busy-bursts.ts';
import { keySlot } from '../../src/resp/key-slot.ts';

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});

const masterOf = (t: Topology, slot: number) =>
  t.nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => a <= slot && slot <= b));

async function info(node: number, section: string) {
  return parseInfo(String(await cluster.command(node, 'INFO', section)));
}

describe('a started local cluster', () => {
  it('is ready: 3 masters covering every slot, each with one linked replica', async () => {
    const t = await cluster.topology();
    const masters = t.nodes.filter((n) => n.role === 'master');
    expect(masters).toHaveLength(3);
    expect(masters.flatMap((m) => m.slots).reduce((sum, [a, b]) => sum + b - a + 1, 0)).toBe(16384);
    for (const m of masters) expect(t.nodes.filter((n) => n.masterIndex === m.node.index)).toHaveLength(1);
    for (const replica of t.nodes.filter((n) => n.role === 'replica')) {
      expect((await info(replica.node.index, 'replication')).master_link_status).toBe('up');
    }
  });

  it('serves a key written through the client proxies and readable back', async () => {
    const redis = cluster.connect();
    try {
      for (let i = 0; i < 30; i++) await redis.set(`{smoke:${i}}`, String(i));
      for (let i = 0; i < 30; i++) expect(await redis.get(`{smoke:${i}}`)).toBe(String(i));
    } finally {
      redis.disconnect();
    }
  });

  it('maps every key of one hash-tagged operation to one slot', async () => {
    const tag = '{cred_7:POST/v1/charges:01HXYZ}';
    const slots = await Promise.all(
      [`idem:v1:${tag}`, `audit:${tag}`, `idem:v2:${tag}:x`].map((k) => cluster.command(0, 'CLUSTER', 'KEYSLOT', k)),
    );
    expect(new Set(slots).size).toBe(1);
    const untagged = await Promise.all(
      ['idem:v1:a', 'idem:v1:b', 'idem:v1:c'].map((k) => cluster.command(0, 'CLUSTER', 'KEYSLOT', k)),
    );
    expect(new Set(untagged).size).toBeGreaterThan(1);
  });
});

describe('failover', () => {
  for (const mode of ['default', 'force', 'takeover'] as const) {
    it(`${mode}: moves the slots to the replica, and heal() returns to ready`, async () => {
      const before = await cluster.topology();
      const master = masterOf(before, 0)!;
      const replica = before.nodes.find((n) => n.masterIndex === master.node.index)!;
      await cluster.failover(replica.node.index, mode);
      const after = await cluster.topology();
      expect(masterOf(after, 0)!.node.index).toBe(replica.node.index);
      expect(masterOf(after, 0)!.slots).toEqual(master.slots);
      await cluster.heal();
      const healed = await cluster.topology();
      expect(healed.nodes.find((n) => n.node.index === master.node.index)!.masterIndex).toBe(replica.node.index);
      const redis = cluster.connect();
      try {
        await redis.set(`{after-${mode}}`, 'v');
        expect(await redis.get(`{after-${mode}}`)).toBe('v');
      } finally {
        redis.disconnect();
      }
    });
  }

  it('refuses to fail over a master', async () => {
    const master = masterOf(await cluster.topology(), 0)!;
    await expect(cluster.failover(master.node.index, 'default')).rejects.toThrow(/not a replica/);
  });
});

describe('node freeze', () => {
  it('shorter than the node timeout: no failover', async () => {
    const master = masterOf(await cluster.topology(), 6000)!;
    await cluster.freeze(master.node.index);
    // The fault itself: a freeze well under the node timeout.
    await new Promise((r) => setTimeout(r, cluster.options.nodeTimeoutMs * 0.3));
    await cluster.thaw(master.node.index);
    await cluster.heal();
    expect(masterOf(await cluster.topology(), 6000)!.node.index).toBe(master.node.index);
  });

  it('longer than the node timeout: the replica is promoted automatically', async () => {
    const before = await cluster.topology();
    const master = masterOf(before, 6000)!;
    const replica = before.nodes.find((n) => n.masterIndex === master.node.index)!;
    await cluster.freeze(master.node.index);
    const deadline = Date.now() + 15_000;
    let promoted = false;
    while (!promoted && Date.now() < deadline) {
      const view = await cluster.command(replica.node.index, 'CLUSTER', 'NODES');
      promoted = String(view)
        .split('\n')
        .some((l) => l.includes('myself') && l.includes('master'));
      if (!promoted) await new Promise((r) => setTimeout(r, 100));
    }
    expect(promoted).toBe(true);
    await cluster.heal();
    const after = await cluster.topology();
    expect(masterOf(after, 6000)!.node.index).toBe(replica.node.index);
    expect(after.nodes.find((n) => n.node.index === master.node.index)!.role).toBe('replica');
  });
});

describe('busy script', () => {
  it('refuses other commands on that master with BUSY while it runs, then serves them, with the threshold restored', async () => {
    const master = masterOf(await cluster.topology(), keySlot('{busy}'))!.node.index;
    const redis = cluster.connect();
    try {
      await redis.set('{busy}a', '0');
      const busy = busyScript(cluster, master, 1_500);
      let ended = false;
      void busy.finally(() => (ended = true)).catch(() => undefined);
      // Wait on the condition, not a fixed delay: commands go through until the script is running.
      let refusal: string | undefined;
      while (refusal === undefined && !ended) {
        refusal = await redis.set('{busy}a', '1').then(
          () => undefined,
          (error: Error) => (/^BUSY/.test(error.message) ? error.message : Promise.reject(error)),
        );
      }
      expect(refusal, 'a command refused while the script ran').toMatch(/^BUSY/);
      await busy;
      await redis.set('{busy}a', '2');
      expect(await redis.get('{busy}a')).toBe('2');
      expect(await cluster.command(master, 'CONFIG', 'GET', 'busy-reply-threshold')).toEqual([
        'busy-reply-threshold',
        '5000',
      ]);
    } finally {
      redis.disconnect();
    }
  });

  it('bursts on every master refuse commands during bursts and serve them in the gaps, and every threshold is restored', async () => {
    const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master').map((n) => n.node.index);
    const redis = cluster.connect();
    const seen = { busy: 0, ok: 0 };
    let running = true;
    try {
      const probe = (async () => {
        for (let i = 0; running; i++) {
          await redis.set(`{busy}p${i}`, '1').then(
            () => seen.ok++,
            (error: Error) => (/^BUSY/.test(error.message) ? seen.busy++ : Promise.reject(error)),
          );
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      await busyBursts(cluster, masters, { ms: 1_000, burstMs: 200, gapMs: 250 });
      running = false;
      await probe;
      expect(seen.busy, 'refused during bursts').toBeGreaterThan(0);
      expect(seen.ok, 'served in the gaps').toBeGreaterThan(0);
      for (const m of masters)
        expect(await cluster.command(m, 'CONFIG', 'GET', 'busy-reply-threshold')).toEqual([
          'busy-reply-threshold',
          '5000',
        ]);
    } finally {
      running = false;
      redis.disconnect();
    }
  });

  it('a script running longer than the node timeout causes no failover: the node answers gossip while busy', async () => {
    const master = masterOf(await cluster.topology(), keySlot('{busy}'))!.node.index;
    await busyScript(cluster, master, 1_500);
    // An observation window, not a wait for a condition: a failover, had the node gone silent, would
    // have started within one more node timeout (and heal() below waits for any in progress to settle).
    await new Promise((r) => setTimeout(r, cluster.options.nodeTimeoutMs * 1.5));
    await cluster.heal();
    expect(masterOf(await cluster.topology(), keySlot('{busy}'))!.node.index).toBe(master);
  });
});

describe('toxics', () => {
  it('latency on a master internal proxy holds replication back while clients are acknowledged at once', async () => {
    const key = '{replication-lag}';
    const slot = Number(await cluster.command(0, 'CLUSTER', 'KEYSLOT', key));
    const t = await cluster.topology();
    const master = masterOf(t, slot)!;
    const replica = t.nodes.find((n) => n.masterIndex === master.node.index)!;
    const redis = cluster.connect();
    try {
      await redis.set(key, 'before'); // connection and slot map warm before timing
      await cluster.toxic(master.node.index, 'internal', {
        type: 'latency',
        attributes: { latency: 3_000, jitter: 0 },
      });
      await redis.set(key, 'after');
      const masterOffset = Number((await info(master.node.index, 'replication')).master_repl_offset);
      const replicaOffset = Number((await info(replica.node.index, 'replication')).slave_repl_offset);
      // Acknowledged, and after the acknowledgement the replica is measurably behind and still holds
      // the old value: the write was not waiting for replication (no clock involved).
      expect(masterOffset - replicaOffset).toBeGreaterThan(0);
      await cluster.command(replica.node.index, 'READONLY');
      expect(await cluster.command(replica.node.index, 'GET', key)).toBe('before');
    } finally {
      redis.disconnect();
      await cluster.heal();
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await cluster.command(replica.node.index, 'GET', key)) !== 'after') {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await cluster.command(replica.node.index, 'GET', key)).toBe('after');
  });

  it('heal() removes toxics and re-enables a disabled proxy', async () => {
    await cluster.setProxyEnabled(0, 'client', false);
    await cluster.toxic(1, 'client', { type: 'timeout', attributes: { timeout: 0 } });
    await cluster.heal();
    const redis = cluster.connect();
    try {
      await redis.set('{healed}', '1');
      expect(await redis.get('{healed}')).toBe('1');
    } finally {
      redis.disconnect();
    }
  });
});
