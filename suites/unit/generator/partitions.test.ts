import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faultsForBackend, refusedPartitionFaults } from '../../../src/certify/partition-faults.ts';
import { parseClusterNodes, topologyFrom } from '../../../src/cluster/topology.ts';
import type { NodeRef } from '../../../src/cluster/types.ts';
import { FAULT_NAMES, parseFaultList, PARTITION_FAULT_NAMES, scheduleArbitrary } from '../../../src/generator/index.ts';
import { describePlan, partitionPlan } from '../../../src/faults/partition-shapes.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

// n0, n1, n2 masters; n3 follows n0, n4 n1, n5 n2 (as a netns cluster starts).
const nodes: NodeRef[] = Array.from({ length: 6 }, (_, i) => ({
  index: i,
  name: `n${i}`,
  announced: `10.0.0.${i}:6379`,
  client: '',
  direct: '',
}));
const topology = topologyFrom(
  parseClusterNodes(
    [
      'a0 10.0.0.0:6379@16379 myself,master - 0 0 1 connected 0-5460',
      'a1 10.0.0.1:6379@16379 master - 0 0 2 connected 5461-10922',
      'a2 10.0.0.2:6379@16379 master - 0 0 3 connected 10923-16383',
      'a3 10.0.0.3:6379@16379 slave a0 0 0 4 connected',
      'a4 10.0.0.4:6379@16379 slave a1 0 0 5 connected',
      'a5 10.0.0.5:6379@16379 slave a2 0 0 6 connected',
    ].join('\n'),
  ),
  nodes,
);

/** Whether a drops packets from b. */
const drops = (plan: ReturnType<typeof partitionPlan>, a: number, b: number) => (plan.grudge.get(a) ?? []).includes(b);

describe("partition shapes (Jepsen's) around the master of a key", () => {
  it('one: the master alone, cut both ways from every other node', () => {
    const plan = partitionPlan('one', topology, 1, 7);
    expect(plan.components).toEqual([[1], [0, 2, 3, 4, 5]]);
    for (const other of [0, 2, 3, 4, 5]) expect(drops(plan, 1, other) && drops(plan, other, 1)).toBe(true);
    expect(drops(plan, 0, 2)).toBe(false);
  });

  it('majority: the master in a minority of half the nodes, of which it is the only master', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.nat(), (master, seed) => {
        const plan = partitionPlan('majority', topology, master, seed);
        const minority = plan.components.find((c) => c.includes(master))!;
        expect(minority).toHaveLength(3);
        expect(minority.filter((i) => i <= 2)).toEqual([master]);
        expect(plan.components.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
      }),
    );
  });

  it('bridge: two halves that cannot see each other, and one node that sees both', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.nat(), (master, seed) => {
        const plan = partitionPlan('bridge', topology, master, seed);
        const [bridge] = plan.bridges;
        const [a, b] = plan.components;
        expect([...a, ...b, bridge].sort()).toEqual([0, 1, 2, 3, 4, 5]);
        expect(a).toContain(master);
        expect(plan.grudge.get(bridge) ?? []).toEqual([]);
        for (const x of a) for (const y of b) expect(drops(plan, x, y) && drops(plan, y, x)).toBe(true);
        for (const x of [...a, ...b]) expect(drops(plan, x, bridge)).toBe(false);
        expect(describePlan(plan)).toMatch(/bridged by n\d/);
      }),
    );
  });

  it('primaries: every master alone, the replicas together', () => {
    const plan = partitionPlan('primaries', topology, 0, 1);
    expect(plan.components).toEqual([[0], [1], [2], [3, 4, 5]]);
    expect(drops(plan, 0, 1) && drops(plan, 1, 2) && drops(plan, 3, 0)).toBe(true);
    expect(drops(plan, 3, 4)).toBe(false);
  });

  it('the same seed gives the same partition (a replay cuts the same nodes)', () => {
    expect(partitionPlan('majority', topology, 2, 99)).toEqual(partitionPlan('majority', topology, 2, 99));
  });
});

describe('partition faults reach only the netns backend', () => {
  it("'all' is unchanged (no partition), and netns adds them to it", () => {
    expect(parseFaultList('all')).toEqual([...FAULT_NAMES]);
    expect(faultsForBackend('local', parseFaultList('all'), undefined)).toEqual([...FAULT_NAMES]);
    expect(faultsForBackend('netns', parseFaultList('all'), 'all')).toEqual([...FAULT_NAMES, ...PARTITION_FAULT_NAMES]);
    expect(faultsForBackend('netns', ['latency'], 'latency')).toEqual(['latency']);
  });

  it('a partition named for another backend is refused in one line', () => {
    expect(refusedPartitionFaults('local', ['latency', 'partition-bridge'])).toMatch(
      /^--faults partition-bridge needs --cluster netns/,
    );
    expect(refusedPartitionFaults('netns', ['partition-bridge'])).toBeUndefined();
  });

  it('the generator draws them when asked, and never when not', () => {
    const kinds = (faults: readonly string[]) =>
      fc
        .sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: faults as never, maxFaults: 3 }), {
          numRuns: 200,
          seed: 3,
        })
        .flatMap((s) => s.faults.map((f) => f.kind));
    expect(new Set(kinds(PARTITION_FAULT_NAMES))).toEqual(new Set(['partition']));
    expect(kinds(FAULT_NAMES)).not.toContain('partition');
  });
});
