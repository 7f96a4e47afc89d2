import { describe, expect, it } from 'vitest';
import { durabilityBeyond } from '../../../src/certify/job.ts';
import type { NodeState, Topology } from '../../../src/cluster/types.ts';

// --durability wait:7:100 on a cluster with one replica per master once certified
// lost-acknowledged-write as passed, though no write could be acknowledged by 7: it is not applicable.

/** `masters` masters, master m with replicas[m] replicas. */
function topology(replicas: number[]): Topology {
  const nodes: NodeState[] = [];
  const node = (index: number) =>
    ({ index, name: `n${index}`, announced: '', client: '' }) as unknown as NodeState['node'];
  replicas.forEach((_, m) =>
    nodes.push({ node: node(m), id: `m${m}`, role: 'master', masterIndex: null, slots: [], flags: [] }),
  );
  replicas.forEach((count, m) => {
    for (let r = 0; r < count; r++)
      nodes.push({
        node: node(nodes.length),
        id: `r${nodes.length}`,
        role: 'replica',
        masterIndex: m,
        slots: [],
        flags: [],
      });
  });
  return { nodes, toString: () => 'test topology' };
}

describe('a WAIT the topology cannot answer makes lost-acknowledged-write not applicable', () => {
  it('says why when a master has fewer replicas than WAIT asks', () => {
    expect(durabilityBeyond({ replicas: 7, timeoutMs: 100 }, topology([1, 1, 1]))).toBe(
      '--durability waits for 7 replica(s), but a master of this cluster has 1: no write is ever acknowledged by 7, so none can be lost',
    );
    // The fewest decides: one master short is enough for a write on its shard never to count.
    expect(durabilityBeyond({ replicas: 2, timeoutMs: 100 }, topology([2, 1, 2]))).toMatch(
      /a master of this cluster has 1/,
    );
  });

  it('is silent when every master has the replicas asked for', () => {
    expect(durabilityBeyond({ replicas: 1, timeoutMs: 100 }, topology([1, 1, 1]))).toBeUndefined();
    expect(durabilityBeyond({ replicas: 2, timeoutMs: 100 }, topology([2, 3]))).toBeUndefined();
  });
});
