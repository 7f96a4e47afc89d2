import fc from 'fast-check';
import { sleep } from '../history/clock.ts';
import { describeFault, type FaultStep } from '../plan/schedule.ts';
import { NODE_STOPS } from './classes.ts';
import { healCluster } from './heal.ts';
import { resolveTarget } from './target.ts';
import { defineFault } from './types.ts';

type NodeFreezeStep = Extract<FaultStep, { kind: 'node-freeze' }>;
type KillRestartStep = Extract<FaultStep, { kind: 'kill-restart' }>;

/** A node stops answering (SIGSTOP) for a while, then resumes where it was. */
export const nodeFreeze = defineFault({
  name: 'node-freeze',
  description: 'a node stops (SIGSTOP) for a while, shorter than the node timeout or long enough for a failover',
  backends: 'any',
  external: 'never',
  recordedAs: 'node-freeze',
  draw: {
    lane: 'cluster',
    class: NODE_STOPS,
    step: ({ at, target, nodeTimeoutMs }) =>
      fc.record({
        kind: fc.constant('node-freeze' as const),
        atMs: at,
        target: target(['master', 'replica']),
        // Shorter than the node timeout: a latency spike. Longer: an automatic failover.
        ms: fc.constantFrom(Math.round(nodeTimeoutMs * 0.3), Math.round(nodeTimeoutMs * 2.5)),
      }),
  },
  is: (step): step is NodeFreezeStep => step.kind === 'node-freeze',
  lossy: (step) => step.target.role === 'master',
  cutsConnections: () => true,
  async apply(step, ctx) {
    const detail = describeFault(step);
    const t = await resolveTarget(ctx.cluster, ctx.slotOf(step.target.key), step.target.role);
    if (!t) return { kind: 'node-freeze', target: 'none', lossy: false, detail: `${detail}: no such node` };
    await ctx.cluster.freeze(t.node);
    await sleep(step.ms);
    await ctx.cluster.thaw(t.node);
    // A master frozen past the node timeout may have been replaced, and its unreplicated writes with it.
    const lossy = step.target.role === 'master' && step.ms >= ctx.nodeTimeoutMs;
    return { kind: 'node-freeze', target: t.label, lossy, failedNodes: 1, detail };
  },
  heal: healCluster,
});

/** A node is killed (kill -9) and restarted, empty without persistence. */
export const killRestart = defineFault({
  name: 'kill-restart',
  description: 'a node is killed (kill -9) and restarted after a moment or after a failover',
  backends: 'any',
  external: 'never',
  recordedAs: 'kill-restart',
  draw: {
    lane: 'cluster',
    class: NODE_STOPS,
    step: ({ at, target, nodeTimeoutMs }) =>
      fc.record({
        kind: fc.constant('kill-restart' as const),
        atMs: at,
        target: target(['master', 'replica']),
        downMs: fc.constantFrom(100, Math.round(nodeTimeoutMs * 2.5)),
      }),
  },
  is: (step): step is KillRestartStep => step.kind === 'kill-restart',
  lossy: (step) => step.target.role === 'master',
  cutsConnections: () => true,
  async apply(step, ctx) {
    const detail = describeFault(step);
    const t = await resolveTarget(ctx.cluster, ctx.slotOf(step.target.key), step.target.role);
    if (!t) return { kind: 'kill-restart', target: 'none', lossy: false, detail: `${detail}: no such node` };
    await ctx.cluster.kill(t.node);
    await sleep(step.downMs);
    await ctx.cluster.restart(t.node);
    // Without persistence a restarted master is empty, and a promoted replica may lag. No replica count
    // protects a write then: back before its replica was promoted, the empty master stays master and
    // its replica resyncs from it, so the write is gone from both (failedNodes left unknown).
    const master = step.target.role === 'master';
    return {
      kind: 'kill-restart',
      target: t.label,
      lossy: master,
      cutsConnections: true,
      ...(master ? {} : { failedNodes: 1 }),
      detail,
    };
  },
  heal: healCluster,
});
