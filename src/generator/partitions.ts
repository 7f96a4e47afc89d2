import fc from 'fast-check';
import type { FaultName } from './constraints.ts';
import type { FaultStep, PartitionStep } from '../plan/schedule.ts';

/**
 * Partition faults (netns backend). Two lengths: inside the node timeout (gossip and replication
 * stall, nobody is failed over) and three times it (the majority promotes a replica while the
 * isolated master keeps acknowledging writes until it notices it is alone: a split brain).
 */
export function partitionKinds(at: fc.Arbitrary<number>, keys: number, nodeTimeoutMs: number): Partial<Record<FaultName, fc.Arbitrary<FaultStep>>> {
  const step = (shape: PartitionStep['shape']): fc.Arbitrary<FaultStep> =>
    fc.record({
      kind: fc.constant('partition' as const),
      atMs: at,
      shape: fc.constant(shape),
      key: fc.integer({ min: 0, max: keys - 1 }),
      ms: fc.constantFrom(Math.round(nodeTimeoutMs * 0.5), Math.round(nodeTimeoutMs * 3)),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    });
  return {
    'partition-one': step('one'),
    'partition-majority': step('majority'),
    'partition-bridge': step('bridge'),
    'partition-primaries': step('primaries'),
  };
}
