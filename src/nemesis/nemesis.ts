import type { ToxicSpec } from '../cluster/types.ts';
import type { FaultStep } from '../plan/schedule.ts';
import { describeFault, isCommandFault, type CommandFaultStep } from '../plan/schedule.ts';
import type { FaultKind, FaultRecord } from '../history/types.ts';
import { sleep } from '../history/clock.ts';
import { busyBursts } from './busy-script.ts';
import { runCommandLane } from './command-faults.ts';
import { applyNetwork, latencyToxic } from './network.ts';
import { applyPartition } from './partition.ts';
import { resolveTarget } from './target.ts';
import type { NemesisContext } from './context.ts';

export type { NemesisContext } from './context.ts';

type Applied = Pick<FaultRecord, 'kind' | 'target' | 'lossy' | 'detail' | 'cutsConnections' | 'failedNodes'>;

type ClusterFaultStep = Exclude<FaultStep, CommandFaultStep>;

/**
 * The schedule's faults on two lanes: cluster faults, and command faults on the client links (which
 * change nothing in the cluster and need no heal). Never judges anything.
 */
export async function runNemesis(faults: readonly FaultStep[], ctx: NemesisContext): Promise<void> {
  await Promise.all([
    runClusterLane(faults.filter((f): f is ClusterFaultStep => !isCommandFault(f)), ctx),
    runCommandLane(faults.filter(isCommandFault), ctx),
  ]);
}

/**
 * Cluster faults one at a time, each followed by a full heal(), so every fault has a bounded window
 * in the history and the next starts from a ready cluster.
 */
async function runClusterLane(faults: readonly ClusterFaultStep[], ctx: NemesisContext): Promise<void> {
  const { clock } = ctx.recorder;
  for (const fault of faults) {
    const wait = fault.atMs - clock.now();
    if (wait > 0) await sleep(wait);
    const startedAt = clock.now();
    let applied: Applied;
    try {
      applied = await apply(fault, ctx);
    } catch (error) {
      applied = { kind: kindOf(fault), target: '?', lossy: lossyByDesign(fault), cutsConnections: true, detail: `${describeFault(fault)} failed: ${(error as Error).message}` };
    }
    await ctx.cluster.heal();
    await applyNetwork(ctx.cluster, ctx.network);
    ctx.recorder.fault({ ...applied, startedAt, endedAt: clock.now() });
    ctx.recorder.topologyChanged(String(await ctx.cluster.topology()));
  }
}

function kindOf(fault: ClusterFaultStep): FaultKind {
  if (fault.kind === 'failover') return `failover-${fault.mode}`;
  return fault.kind;
}

/** Could this fault lose acknowledged writes? Decided before it runs, so a failed attempt stays conservative. */
function lossyByDesign(fault: ClusterFaultStep): boolean {
  switch (fault.kind) {
    case 'failover':
      return fault.mode !== 'default';
    case 'kill-restart':
    case 'node-freeze':
      return fault.target.role === 'master';
    case 'partition':
      return true;
    default:
      return false;
  }
}

async function apply(fault: ClusterFaultStep, ctx: NemesisContext): Promise<Applied> {
  const { cluster } = ctx;
  const detail = describeFault(fault);
  switch (fault.kind) {
    case 'script-flush':
      await cluster.scriptFlush();
      return { kind: 'script-flush', target: 'every node', lossy: false, detail };
    case 'busy-script': {
      const masters = fault.everyMaster
        ? (await cluster.topology()).nodes.filter((n) => n.role === 'master').map((n) => ({ node: n.node.index, label: n.node.name }))
        : [await resolveTarget(cluster, ctx.slotOf(fault.key), 'master')].filter((t) => t !== undefined);
      if (masters.length === 0) return { kind: 'busy-script', target: 'none', lossy: false, detail: `${detail}: no master` };
      await busyBursts(cluster, masters.map((m) => m.node), fault);
      // Bursts are sized well inside the node timeout; should a shard still have failed over, say so.
      const after = await cluster.topology();
      const failedOver = masters.some((m) => after.nodes.find((n) => n.node.index === m.node)?.role !== 'master');
      // A master busy past the node timeout is a failed node to the others.
      return { kind: 'busy-script', target: masters.map((m) => m.label).join(', '), lossy: failedOver, failedNodes: masters.length, detail };
    }
    case 'failover': {
      const replica = await resolveTarget(cluster, ctx.slotOf(fault.key), 'replica');
      if (!replica) return { kind: kindOf(fault), target: 'none', lossy: false, detail: `${detail}: no replica to promote` };
      await cluster.failover(replica.node, fault.mode);
      // No node fails: the replica is told to take over, holding whatever it acknowledged.
      return { kind: kindOf(fault), target: replica.label, lossy: fault.mode !== 'default', failedNodes: 0, detail };
    }
    case 'node-freeze': {
      const t = await resolveTarget(cluster, ctx.slotOf(fault.target.key), fault.target.role);
      if (!t) return { kind: 'node-freeze', target: 'none', lossy: false, detail: `${detail}: no such node` };
      await cluster.freeze(t.node);
      await sleep(fault.ms);
      await cluster.thaw(t.node);
      // A master frozen past the node timeout may have been replaced, and its unreplicated writes with it.
      const lossy = fault.target.role === 'master' && fault.ms >= ctx.nodeTimeoutMs;
      return { kind: 'node-freeze', target: t.label, lossy, failedNodes: 1, detail };
    }
    case 'toxic': {
      const t = await resolveTarget(cluster, ctx.slotOf(fault.target.key), fault.target.role);
      if (!t) return { kind: 'toxic', target: 'none', lossy: false, detail: `${detail}: no such node` };
      const spec: ToxicSpec =
        fault.toxic === 'latency'
          ? latencyToxic(fault.delayMs ?? fault.ms)
          : { type: fault.toxic, attributes: { timeout: fault.toxic === 'timeout' ? 0 : fault.ms } };
      await cluster.toxic(t.node, fault.link, spec);
      await sleep(fault.ms);
      const cutsConnections = fault.link === 'client' && fault.toxic !== 'latency';
      return { kind: 'toxic', target: `${t.label} ${fault.link} link`, lossy: false, cutsConnections, detail };
    }
    case 'kill-restart': {
      const t = await resolveTarget(cluster, ctx.slotOf(fault.target.key), fault.target.role);
      if (!t) return { kind: 'kill-restart', target: 'none', lossy: false, detail: `${detail}: no such node` };
      await cluster.kill(t.node);
      await sleep(fault.downMs);
      await cluster.restart(t.node);
      // Without persistence a restarted master is empty, and a promoted replica may lag. No replica count
      // protects a write then: back before its replica was promoted, the empty master stays master and
      // its replica resyncs from it, so the write is gone from both (failedNodes left unknown).
      const master = fault.target.role === 'master';
      return { kind: 'kill-restart', target: t.label, lossy: master, cutsConnections: true, ...(master ? {} : { failedNodes: 1 }), detail };
    }
    case 'partition':
      return applyPartition(fault, ctx);
  }
}
