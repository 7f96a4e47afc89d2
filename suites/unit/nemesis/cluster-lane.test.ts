import { describe, expect, it } from 'vitest';
import type { Cluster, NodeRef, NodeState, Topology } from '../../../src/cluster/types.ts';
import { startClock } from '../../../src/history/clock.ts';
import { Recorder } from '../../../src/history/recorder.ts';
import { runNemesis } from '../../../src/nemesis/nemesis.ts';
import { nodeFor } from '../../../src/faults/target.ts';
import type { FaultStep } from '../../../src/plan/schedule.ts';

// The nemesis's cluster lane without a cluster: what it asks a cluster to do for each fault, in which
// order, and what it records (window, target, lossy). A stand-in that records calls is enough here:
// this is the lane's own logic, not evidence about Redis (the real-cluster suites are that).

const ref = (index: number): NodeRef =>
  ({
    index,
    name: `n${index}`,
    announced: `127.0.0.1:${7000 + index}`,
    client: `127.0.0.1:${8000 + index}`,
  }) as NodeRef;
const master = (index: number, slots: [number, number]): NodeState => ({
  node: ref(index),
  id: `id${index}`,
  role: 'master',
  masterIndex: null,
  slots: [slots],
  flags: ['master'],
});
const replica = (index: number, of: number): NodeState => ({
  node: ref(index),
  id: `id${index}`,
  role: 'replica',
  masterIndex: of,
  slots: [],
  flags: ['slave'],
});
const TOPOLOGY: Topology = {
  nodes: [
    master(0, [0, 5460]),
    master(1, [5461, 10922]),
    master(2, [10923, 16383]),
    replica(3, 0),
    replica(4, 1),
    replica(5, 2),
  ],
  toString: () => 'n0 master 0-5460 <- n3 | n1 master 5461-10922 <- n4 | n2 master 10923-16383 <- n5',
};

/** Records every call; `failing` names a method that throws. */
function standIn(failing?: string) {
  const calls: string[] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push(`${name}(${args.map((a) => (typeof a === 'object' ? JSON.stringify(a) : String(a))).join(', ')})`);
      if (name === failing) throw new Error(`${name} refused`);
    };
  const cluster = {
    kind: 'local',
    destructive: true,
    nodes: TOPOLOGY.nodes.map((n) => n.node),
    topology: async () => TOPOLOGY,
    heal: record('heal'),
    failover: record('failover'),
    freeze: record('freeze'),
    thaw: record('thaw'),
    kill: record('kill'),
    restart: record('restart'),
    scriptFlush: record('scriptFlush'),
    toxic: record('toxic'),
  } as unknown as Cluster;
  return { cluster, calls };
}

/** Logical key k lives in slot 100 + 6000 k: key 0 on n0, key 1 on n1, key 2 on n2. */
async function run(faults: FaultStep[], failing?: string) {
  const { cluster, calls } = standIn(failing);
  const recorder = new Recorder(startClock());
  await runNemesis(faults, { cluster, recorder, slotOf: (k) => 100 + 6000 * k, nodeTimeoutMs: 1000 });
  return { calls, faults: recorder.history().faults };
}

describe('nodeFor', () => {
  it('finds the master serving a slot, and its replica', () => {
    expect(nodeFor(TOPOLOGY, 0, 'master')).toBe(0);
    expect(nodeFor(TOPOLOGY, 5461, 'master')).toBe(1);
    expect(nodeFor(TOPOLOGY, 16383, 'replica')).toBe(5);
  });

  it('is undefined for a slot nobody serves, or a master without a replica', () => {
    const lonely: Topology = { nodes: [master(0, [0, 100])], toString: () => 'n0' };
    expect(nodeFor(lonely, 101, 'master')).toBeUndefined();
    expect(nodeFor(lonely, 50, 'replica')).toBeUndefined();
  });
});

describe('the cluster lane', () => {
  it('aims each fault at the shard of its key and heals after every one', async () => {
    const { calls } = await run([
      { kind: 'failover', atMs: 0, key: 1, mode: 'force' },
      { kind: 'kill-restart', atMs: 0, target: { key: 2, role: 'master' }, downMs: 1 },
      { kind: 'node-freeze', atMs: 0, target: { key: 0, role: 'replica' }, ms: 1 },
      { kind: 'script-flush', atMs: 0 },
    ]);
    expect(calls).toEqual([
      'failover(4, force)',
      'heal()',
      'kill(2)',
      'restart(2)',
      'heal()',
      'freeze(3)',
      'thaw(3)',
      'heal()',
      'scriptFlush()',
      'heal()',
    ]);
  });

  it('records each fault with its window and whether it may lose acknowledged writes', async () => {
    const { faults } = await run([
      { kind: 'failover', atMs: 0, key: 0, mode: 'default' },
      { kind: 'failover', atMs: 0, key: 0, mode: 'takeover' },
      { kind: 'kill-restart', atMs: 0, target: { key: 0, role: 'replica' }, downMs: 1 },
      { kind: 'kill-restart', atMs: 0, target: { key: 0, role: 'master' }, downMs: 1 },
      { kind: 'node-freeze', atMs: 0, target: { key: 1, role: 'master' }, ms: 5 },
      { kind: 'toxic', atMs: 0, target: { key: 1, role: 'master' }, link: 'client', toxic: 'reset_peer', ms: 1 },
    ]);
    expect(faults.map((f) => [f.kind, f.target, f.lossy])).toEqual([
      ['failover-default', 'n3 (replica of slot 100)', false], // a coordinated failover waits for the replica
      ['failover-takeover', 'n3 (replica of slot 100)', true],
      ['kill-restart', 'n3 (replica of slot 100)', false],
      ['kill-restart', 'n0 (master of slot 100)', true], // no persistence: a restarted master is empty
      ['node-freeze', 'n1 (master of slot 6100)', false], // shorter than the node timeout: no failover
      ['toxic', 'n1 (master of slot 6100) client link', false],
    ]);
    expect(faults.at(-1)!.cutsConnections).toBe(true);
    for (const f of faults) expect(f.endedAt).toBeGreaterThanOrEqual(f.startedAt);
  });

  it('a fault that fails to apply is recorded as failed, conservatively lossy, and the cluster is still healed', async () => {
    const { calls, faults } = await run(
      [{ kind: 'kill-restart', atMs: 0, target: { key: 0, role: 'master' }, downMs: 1 }],
      'kill',
    );
    expect(calls).toEqual(['kill(0)', 'heal()']);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ kind: 'kill-restart', target: '?', lossy: true, cutsConnections: true });
    expect(faults[0].detail).toMatch(/failed: kill refused/);
  });

  it("puts the run's slow network back after each heal", async () => {
    const { cluster, calls } = standIn();
    const recorder = new Recorder(startClock());
    await runNemesis([{ kind: 'script-flush', atMs: 0 }], {
      cluster,
      recorder,
      slotOf: () => 0,
      nodeTimeoutMs: 1000,
      network: { clientLatencyMs: 40 },
    });
    expect(calls[0]).toBe('scriptFlush()');
    expect(calls[1]).toBe('heal()');
    expect(calls.slice(2)).toHaveLength(6); // one latency toxic per node's client link
    expect(calls.slice(2).every((c) => c.startsWith('toxic(') && c.includes('"latency":40'))).toBe(true);
  });
});

describe('a primary failed over by Sentinel (failoverEpoch)', () => {
  /** A stand-in whose failover epoch rises by `rise` across the fault (read once before, once after its heal). */
  async function across(rise: number, fault: FaultStep) {
    const { cluster } = standIn();
    let epoch = 4;
    Object.assign(cluster, {
      failoverEpoch: async () => epoch,
      heal: async () => {
        epoch += rise;
      },
    });
    const recorder = new Recorder(startClock());
    await runNemesis([fault], { cluster, recorder, slotOf: () => 100, nodeTimeoutMs: 1000 });
    return recorder.history().faults;
  }

  it('marks lossy, and says so, any fault across which the epoch rose, whatever the fault', async () => {
    const toxic: FaultStep = {
      kind: 'toxic',
      atMs: 0,
      target: { key: 0, role: 'master' },
      link: 'internal',
      toxic: 'timeout',
      ms: 1,
    };
    const [moved] = await across(1, toxic);
    expect(moved).toMatchObject({ kind: 'toxic', lossy: true });
    expect(moved.detail).toMatch(/; Sentinel failed the primary over$/);
    const [twice] = await across(2, { kind: 'failover', atMs: 0, key: 0, mode: 'default' });
    expect(twice).toMatchObject({ kind: 'failover-default', lossy: true });
    expect(twice.detail).toMatch(/Sentinel failed the primary over 2 times$/);
  });

  it('leaves a fault across which it did not rise as its descriptor says', async () => {
    const [flush] = await across(0, { kind: 'script-flush', atMs: 0 });
    expect(flush).toMatchObject({ kind: 'script-flush', lossy: false });
    expect(flush.detail).not.toMatch(/Sentinel/);
  });
});
