import fc from 'fast-check';
import type { PartitionStep } from '../plan/schedule.ts';
import { NODES_CUT_OFF } from './classes.ts';
import { healCluster } from './heal.ts';
import { applyPartition } from './partition-apply.ts';
import { defineFault } from './types.ts';

/**
 * Partitions between nodes, in Jepsen's shapes (netns backend only). Two lengths: inside the node
 * timeout (gossip and replication stall, nobody is failed over) and three times it (the majority
 * promotes a replica while the isolated master keeps acknowledging writes until it notices it is
 * alone: a split brain).
 */
function partition<N extends string>(name: N, shape: PartitionStep['shape'], description: string) {
  return defineFault({
    name,
    description,
    backends: 'netns',
    external: 'never',
    recordedAs: 'partition',
    draw: {
      lane: 'cluster',
      class: NODES_CUT_OFF,
      step: ({ at, keys, nodeTimeoutMs }) =>
        fc.record({
          kind: fc.constant('partition' as const),
          atMs: at,
          shape: fc.constant(shape),
          key: fc.integer({ min: 0, max: keys - 1 }),
          ms: fc.constantFrom(Math.round(nodeTimeoutMs * 0.5), Math.round(nodeTimeoutMs * 3)),
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
    },
    is: (step): step is PartitionStep => step.kind === 'partition' && step.shape === shape,
    lossy: () => true,
    cutsConnections: () => true,
    apply: applyPartition,
    heal: healCluster,
  });
}

export const partitionOne = partition(
  'partition-one',
  'one',
  "the master of a key's shard cut off from every other node",
);
export const partitionMajority = partition(
  'partition-majority',
  'majority',
  'the master of a shard in a minority, the majority free to promote its replica',
);
export const partitionBridge = partition(
  'partition-bridge',
  'bridge',
  'the nodes split in two halves that one node bridges',
);
export const partitionPrimaries = partition(
  'partition-primaries',
  'primaries',
  'every master cut off from every other node',
);
