import fc from 'fast-check';
import type { FailoverMode, FaultStep } from '../plan/schedule.ts';
import { describeFault } from '../plan/schedule.ts';
import { MASTER_MOVES } from './classes.ts';
import { healCluster } from './heal.ts';
import { resolveTarget } from './target.ts';
import { defineFault } from './types.ts';

type FailoverStep = Extract<FaultStep, { kind: 'failover' }>;

/**
 * CLUSTER FAILOVER on the replica of a key's shard, in one of its three modes. Only the default one
 * (a handshake: the master stops, the replica catches up, then takes over) loses nothing.
 */
function failover<N extends string>(name: N, mode: FailoverMode, description: string) {
  return defineFault({
    name,
    description,
    backends: 'any',
    external: 'destructive',
    recordedAs: `failover-${mode}`,
    draw: {
      lane: 'cluster',
      class: MASTER_MOVES,
      step: ({ at, keys }) =>
        fc.record({
          kind: fc.constant('failover' as const),
          atMs: at,
          key: fc.integer({ min: 0, max: keys - 1 }),
          mode: fc.constant(mode),
        }),
    },
    is: (step): step is FailoverStep => step.kind === 'failover' && step.mode === mode,
    lossy: () => mode !== 'default',
    cutsConnections: () => true,
    async apply(step, ctx) {
      const detail = describeFault(step);
      const replica = await resolveTarget(ctx.cluster, ctx.slotOf(step.key), 'replica');
      if (!replica)
        return { kind: `failover-${mode}`, target: 'none', lossy: false, detail: `${detail}: no replica to promote` };
      await ctx.cluster.failover(replica.node, mode);
      // No node fails: the replica is told to take over, holding whatever it acknowledged.
      return { kind: `failover-${mode}`, target: replica.label, lossy: mode !== 'default', failedNodes: 0, detail };
    },
    heal: healCluster,
  });
}

export const failoverDefault = failover(
  'failover',
  'default',
  'CLUSTER FAILOVER of a shard: the replica takes over after catching up',
);
export const failoverForce = failover(
  'failover-force',
  'force',
  'CLUSTER FAILOVER FORCE: the replica takes over without the master agreeing (may lose writes)',
);
export const failoverTakeover = failover(
  'failover-takeover',
  'takeover',
  'CLUSTER FAILOVER TAKEOVER: the replica takes over without the cluster agreeing (may lose writes)',
);
