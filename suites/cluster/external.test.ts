import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterUsageError, EnvironmentError } from '../../src/cluster/errors.ts';
import { ExternalCluster, type ExternalClusterConstraints } from '../../src/cluster/external.ts';
import { LocalCluster } from '../../src/cluster/local.ts';
import type { Cluster, Topology } from '../../src/cluster/types.ts';

// An "external" cluster here is a LocalCluster reached only through its seeds (the client proxies)
// and natMap, exactly as a user's cluster behind NAT would be.
let local: LocalCluster;
let seeds: string;
const opened: ExternalCluster[] = [];

async function external(options: Omit<ExternalClusterConstraints, 'seeds'> = {}): Promise<ExternalCluster> {
  const cluster = await ExternalCluster.connect({ seeds, natMap: local.natMap(), ...options });
  opened.push(cluster);
  return cluster;
}

beforeAll(async () => {
  local = await LocalCluster.start();
  seeds = `redis://${local
    .seeds()
    .map((s) => `${s.host}:${s.port}`)
    .join(',')}`;
});
afterAll(async () => {
  for (const cluster of opened) await cluster.dispose().catch(() => undefined);
  await local?.dispose();
});

/** A topology keyed by announced address, so two backends' different node numbering compares. */
function byAddress(t: Topology): Record<string, string> {
  const address = new Map(t.nodes.map((n) => [n.node.index, n.node.announced]));
  return Object.fromEntries(
    t.nodes.map((n) => [
      n.node.announced,
      n.role === 'master'
        ? `master ${n.slots.map((s) => s.join('-')).join(',')}`
        : `replica of ${address.get(n.masterIndex!)}`,
    ]),
  );
}

/** Every key matching `pattern` on every master, read straight from the local cluster's nodes. */
async function keysMatching(pattern: string): Promise<string[]> {
  const keys: string[] = [];
  for (const state of (await local.topology()).nodes.filter((n) => n.role === 'master')) {
    let cursor = '0';
    do {
      const [next, batch] = (await local.command(
        state.node.index,
        'SCAN',
        cursor,
        'MATCH',
        pattern,
        'COUNT',
        1000,
      )) as [string, string[]];
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
  }
  return keys.sort();
}

const DESTRUCTIVE: [string, (c: Cluster) => Promise<unknown>][] = [
  ['failover', (c) => c.failover(3, 'default')],
  ['freeze', (c) => c.freeze(0)],
  ['thaw', (c) => c.thaw(0)],
  ['kill', (c) => c.kill(0)],
  ['restart', (c) => c.restart(0)],
  ['scriptFlush', (c) => c.scriptFlush()],
  ['toxic', (c) => c.toxic(0, 'client', { type: 'latency', attributes: { latency: 10 } })],
  ['setProxyEnabled', (c) => c.setProxyEnabled(0, 'client', false)],
];

describe('ExternalCluster over a running cluster', () => {
  it('discovers the same topology, numbered masters first, and reports seeds as given', async () => {
    const cluster = await external();
    expect(cluster.kind).toBe('external');
    expect(cluster.nodes).toHaveLength(6);
    expect(byAddress(await cluster.topology())).toEqual(byAddress(await local.topology()));
    const t = await cluster.topology();
    expect(t.nodes.map((n) => n.role)).toEqual(['master', 'master', 'master', 'replica', 'replica', 'replica']);
    expect(cluster.seeds()).toEqual(local.seeds());
    expect(cluster.natMap()).toEqual(local.natMap());
    expect(await cluster.redisVersion()).toBe(await local.redisVersion());
    expect(await cluster.command(4, 'PING')).toBe('PONG');
    expect(String(cluster)).toMatch(/^external cluster redis:\/\/127\.0\.0\.1:\d+,/);
  });

  it('serves a key written through its client and reads one written by another', async () => {
    const cluster = await external();
    const prefix = cluster.namespace('rw');
    const mine = cluster.connect();
    const theirs = local.connect();
    try {
      for (let i = 0; i < 20; i++) await mine.set(`${prefix}{k${i}}`, `v${i}`);
      for (let i = 0; i < 20; i++) expect(await theirs.get(`${prefix}{k${i}}`)).toBe(`v${i}`);
      await theirs.set('written-elsewhere{x}', 'hello');
      expect(await mine.get('written-elsewhere{x}')).toBe('hello');
    } finally {
      mine.disconnect();
      theirs.disconnect();
    }
  });

  it('refuses every destructive operation without allowDestructive', async () => {
    const cluster = await external();
    expect(cluster.destructive).toBe(false);
    for (const [op, run] of DESTRUCTIVE) {
      const error = await run(cluster).catch((e: unknown) => e);
      expect(error, op).toBeInstanceOf(ClusterUsageError);
      expect((error as Error).message, op).toBe(`${op} refused on an external cluster: pass --allow-destructive`);
    }
    await expect(cluster.heal()).resolves.toBeUndefined();
  });

  it('with allowDestructive: refuses what needs process access, clearly', async () => {
    const cluster = await external({ allowDestructive: true });
    expect(cluster.destructive).toBe(true);
    for (const [op, run] of DESTRUCTIVE.filter(([op]) => op !== 'failover' && op !== 'scriptFlush')) {
      const error = await run(cluster).catch((e: unknown) => e);
      expect(error, op).toBeInstanceOf(ClusterUsageError);
      expect((error as Error).message, op).toMatch(
        new RegExp(`^${op} is not possible on an external cluster: it needs process or network access`),
      );
    }
  });

  it('with allowDestructive: SCRIPT FLUSH reaches every node', async () => {
    const cluster = await external({ allowDestructive: true });
    const shas = await Promise.all(local.nodes.map((n) => local.command(n.index, 'SCRIPT', 'LOAD', 'return 1')));
    const sha = String(shas[0]);
    for (const n of local.nodes) expect(await local.command(n.index, 'SCRIPT', 'EXISTS', sha)).toEqual([1]);
    await cluster.scriptFlush();
    for (const n of local.nodes) expect(await local.command(n.index, 'SCRIPT', 'EXISTS', sha), n.name).toEqual([0]);
  });

  it('with allowDestructive: a default failover promotes the replica, and heal() waits for ready', async () => {
    const cluster = await external({ allowDestructive: true });
    const before = await cluster.topology();
    const replica = before.nodes.find((n) => n.role === 'replica')!;
    const oldMaster = before.nodes[replica.masterIndex!];
    await cluster.failover(replica.node.index, 'default');
    const after = byAddress(await local.topology());
    expect(after[replica.node.announced]).toBe(`master ${oldMaster.slots.map((s) => s.join('-')).join(',')}`);
    expect(after[oldMaster.node.announced]).toBe(`replica of ${replica.node.announced}`);
    await cluster.heal();
    await expect(cluster.failover(oldMaster.node.index, 'default')).resolves.toBeUndefined();
  });

  it('passes username and password through to every connection', async () => {
    for (const n of local.nodes)
      await local.command(n.index, 'ACL', 'SETUSER', 'chaos', 'on', '>s3cret', '~*', '&*', '+@all');
    const cluster = await external({ username: 'chaos', password: 's3cret' });
    const client = cluster.connect();
    try {
      await client.set('acl-check{a}', '1');
      expect(await client.call('ACL', 'WHOAMI')).toBe('chaos');
    } finally {
      client.disconnect();
    }
    const error = await external({ username: 'chaos', password: 'wrong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as Error).message).toMatch(/no seed answered CLUSTER NODES .*WRONGPASS/);
  });

  it("dispose() deletes every key under the run's namespace and nothing else", async () => {
    const cluster = await ExternalCluster.connect({ seeds, natMap: local.natMap() });
    const prefix = cluster.namespace('run-dispose');
    expect(prefix).toBe('chaoslua:run-dispose:');
    const client = local.connect();
    try {
      // Spread over all three shards: each key has its own hash tag.
      await Promise.all(Array.from({ length: 300 }, (_, i) => client.set(`${prefix}idem:v1:{k${i}}`, String(i))));
      await client.set('outside:{k1}', 'keep');
      await client.set('chaoslua:run-other:idem:v1:{k2}', 'keep');
      expect(await keysMatching(`${prefix}*`)).toHaveLength(300);
      await cluster.dispose();
      expect(await keysMatching(`${prefix}*`)).toEqual([]);
      expect(await client.get('outside:{k1}')).toBe('keep');
      expect(await client.get('chaoslua:run-other:idem:v1:{k2}')).toBe('keep');
    } finally {
      client.disconnect();
    }
  });
});
