import fc from 'fast-check';
import { describeFault, type FaultStep } from '../plan/schedule.ts';
import { busyBursts } from './busy-bursts.ts';
import { REDIS_REFUSES, SCRIPTS_FORGOTTEN } from './classes.ts';
import { healCluster } from './heal.ts';
import { resolveTarget } from './target.ts';
import { defineFault } from './types.ts';

type ScriptFlushStep = Extract<FaultStep, { kind: 'script-flush' }>;
type BusyScriptStep = Extract<FaultStep, { kind: 'busy-script' }>;

/** SCRIPT FLUSH on every node: Redis answers NOSCRIPT until a script is loaded again. */
export const scriptFlush = defineFault({
  name: 'script-flush',
  description: 'SCRIPT FLUSH on every node: the next EVALSHA gets NOSCRIPT',
  backends: 'any',
  external: 'destructive',
  recordedAs: 'script-flush',
  draw: {
    lane: 'cluster',
    class: SCRIPTS_FORGOTTEN,
    step: ({ at }) => fc.record({ kind: fc.constant('script-flush' as const), atMs: at }),
  },
  is: (step): step is ScriptFlushStep => step.kind === 'script-flush',
  lossy: () => false,
  cutsConnections: () => true,
  async apply(step, ctx) {
    await ctx.cluster.scriptFlush();
    return { kind: 'script-flush', target: 'every node', lossy: false, detail: describeFault(step) };
  },
  heal: healCluster,
});

/**
 * Slow scripts on the master of a key's shard (or every master): during each burst every other
 * command there gets BUSY, the one error that reaches an implementation.
 */
export const busyScript = defineFault({
  name: 'busy-script',
  description: 'slow scripts on a master (or every master): other commands there get BUSY in bursts',
  backends: 'any',
  external: 'destructive',
  recordedAs: 'busy-script',
  draw: {
    lane: 'cluster',
    class: REDIS_REFUSES,
    // Bursts well inside the node timeout: the shard is busy, not gone, so no failover can follow.
    // Gaps let a retry through, which is when a retry that misreads the state shows.
    step: ({ at, keys, horizonMs, nodeTimeoutMs }) =>
      fc.record({
        kind: fc.constant('busy-script' as const),
        atMs: at,
        key: fc.integer({ min: 0, max: keys - 1 }),
        everyMaster: fc.boolean(),
        ms: fc.integer({ min: 300, max: Math.max(300, horizonMs) }),
        burstMs: fc.integer({ min: 100, max: Math.min(1_000, Math.max(100, Math.round(nodeTimeoutMs * 0.4))) }),
        gapMs: fc.integer({ min: 50, max: 300 }),
      }),
  },
  is: (step): step is BusyScriptStep => step.kind === 'busy-script',
  lossy: () => false,
  cutsConnections: () => true,
  async apply(step, ctx) {
    const { cluster } = ctx;
    const detail = describeFault(step);
    const masters = step.everyMaster
      ? (await cluster.topology()).nodes
          .filter((n) => n.role === 'master')
          .map((n) => ({ node: n.node.index, label: n.node.name }))
      : [await resolveTarget(cluster, ctx.slotOf(step.key), 'master')].filter((t) => t !== undefined);
    if (masters.length === 0)
      return { kind: 'busy-script', target: 'none', lossy: false, detail: `${detail}: no master` };
    await busyBursts(
      cluster,
      masters.map((m) => m.node),
      step,
    );
    // Bursts are sized well inside the node timeout; should a shard still have failed over, say so.
    const after = await cluster.topology();
    const failedOver = masters.some((m) => after.nodes.find((n) => n.node.index === m.node)?.role !== 'master');
    // A master busy past the node timeout is a failed node to the others.
    return {
      kind: 'busy-script',
      target: masters.map((m) => m.label).join(', '),
      lossy: failedOver,
      failedNodes: masters.length,
      detail,
    };
  },
  heal: healCluster,
});
