// Five independent masters (Redlock's deployment) really start: standalone servers (no cluster
// mode), each answering through its own client link and holding its own keys; a master's clock
// moves (a lease there ends early, the others' do not); a killed master comes back empty; a toxic on
// a client link cuts that master only; the heal puts everything back; dispose leaves nothing behind.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MastersCluster } from '../../src/cluster/masters.ts';
import { ClusterUsageError } from '../../src/cluster/errors.ts';
import { isAlive } from '../support/processes.ts';
import type { Redis } from 'ioredis';

let masters: MastersCluster;
let clients: Redis[];
beforeAll(async () => {
  masters = await MastersCluster.start({ seed: 3 });
  clients = masters.masterClients({ commandTimeout: 1_000, maxRetriesPerRequest: 1 });
}, 30_000);
afterAll(async () => {
  for (const c of clients ?? []) c.disconnect();
  await masters?.dispose();
});

it('starts five standalone masters, each answering on its own client link with its own keys', async () => {
  expect(masters.nodes).toHaveLength(5);
  expect(masters.topologyKind).toBe('masters');
  expect(String(await masters.topology())).toBe('5 independent masters n0,n1,n2,n3,n4 (no cluster, no replicas)');
  for (const [i, c] of clients.entries()) {
    expect(await c.info('cluster')).toMatch(/cluster_enabled:0/);
    expect(await c.set('masters:k', `v${i}`)).toBe('OK');
  }
  // The same key holds each master's own value: nothing is replicated, nothing routed.
  expect(await Promise.all(clients.map((c) => c.get('masters:k')))).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  expect(() => masters.connect()).toThrow(ClusterUsageError);
  await expect(masters.failover(0)).rejects.toThrow(/no replica/);
});

it("moves one master's clock: a lease there ends early, the same lease elsewhere does not; the heal sets it true", async () => {
  await Promise.all(clients.map((c) => c.set('masters:lease', 'held', 'PX', 60_000)));
  masters.clocks!.set(2, { offsetMs: 65_000 });
  expect(await Promise.all(clients.map((c) => c.get('masters:lease')))).toEqual(['held', 'held', null, 'held', 'held']);
  await masters.heal();
  expect(masters.clocks!.offsetMs(2)).toBe(0);
  const [s] = (await clients[2].time()) as unknown as [string, string];
  expect(Math.abs(Number(s) * 1000 - Date.now())).toBeLessThan(1_500);
});

it('a killed master comes back empty, a toxic cuts one master only, and the heal brings both back', async () => {
  await clients[1].set('masters:gone', 'x');
  const pid = masters.processes()[1].pid!;
  await masters.kill(1);
  expect(isAlive(pid)).toBe(false);
  await masters.restart(1);
  expect(await clients[1].get('masters:gone')).toBeNull();
  await masters.toxic(3, 'client', { type: 'timeout', attributes: { timeout: 0 } });
  await expect(clients[3].ping()).rejects.toThrow();
  expect(await clients[4].ping()).toBe('PONG');
  await masters.freeze(0);
  await masters.heal();
  expect(masters.processes().map((p) => p.status)).toEqual(Array(5).fill('running'));
  const fresh = masters.masterClients({ commandTimeout: 1_000 });
  try {
    expect(await Promise.all(fresh.map((c) => c.ping()))).toEqual(Array(5).fill('PONG'));
  } finally {
    for (const c of fresh) c.disconnect();
  }
});

it('dispose leaves no server, no toxiproxy and no folder behind', async () => {
  const other = await MastersCluster.start({ count: 3 });
  const pids = [...other.processes().map((p) => p.pid!), other.toxiproxyPid!];
  const dir = other.directory;
  expect(pids.every(isAlive)).toBe(true);
  await other.dispose();
  expect(pids.filter(isAlive)).toEqual([]);
  expect(fs.existsSync(dir)).toBe(false);
});
