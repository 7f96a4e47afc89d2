/**
 * Server clock faults, Jepsen's clock nemesis for Redis: a node's wall clock steps, strobes or drifts
 * while the node runs (the clock preload, native/clockshift.c), and the one heal sets it true. Redis
 * reads that clock for key expiry, TIME and failure detection, so a lease on a node whose clock moved
 * ends early or late in real time. Every offset set is recorded with its instant (clockOffsets); the
 * checker widens expiry windows by them only to tell a clock loss (the environment) from a bug.
 */
import fc from 'fast-check';
import type { Cluster } from '../cluster/types.ts';
import type { ClockOffset } from '../history/types.ts';
import { sleep } from '../history/clock.ts';
import { describeFault, type ClockStep, type FaultStep } from '../plan/schedule.ts';
import { CLOCKS_MOVE } from './classes.ts';
import { healCluster } from './heal.ts';
import { resolveTarget } from './target.ts';
import { defineFault, type Applied, type NemesisContext } from './types.ts';

type Of<K extends ClockStep['kind']> = Extract<FaultStep, { kind: K }>;

/** Steps a team meets: an NTP step of a tenth of a second, a VM resumed a second late, a clock set by hand. */
const JUMPS_MS = [100, 1_000, 5_000];
/** `--set clock-jump=MS`: every step that size, either way (0: drawn from JUMPS_MS). */
export const CLOCK_JUMP = 'clock-jump';
const jumpsOf = (settings: Readonly<Record<string, number>> = {}) => (settings[CLOCK_JUMP] ? [settings[CLOCK_JUMP]] : JUMPS_MS);
const seconds = (ms: number) => `${ms / 1000} s`;
const signed = (sizes: readonly number[]) => fc.constantFrom(...sizes.flatMap((ms) => [ms, -ms]));

/** The clocks of a cluster that has them, or the one line saying why this one cannot move a clock. */
function clocksOf(cluster: Cluster): NonNullable<Cluster['clocks']> {
  if (!cluster.clocks) throw new Error(`a ${cluster.kind} cluster's servers do not run under the clock preload: their clocks cannot be moved`);
  return cluster.clocks;
}

/** Sets node's clock and records the offset it reads from now on. */
function mover(ctx: NemesisContext, node: number) {
  const clocks = clocksOf(ctx.cluster);
  const offsets: ClockOffset[] = [];
  const name = ctx.cluster.nodes[node].name;
  return {
    offsets,
    set(setting: { offsetMs: number; driftPpm?: number }) {
      clocks.set(node, setting);
      offsets.push({ at: ctx.recorder.clock.now(), node: name, offsetMs: setting.offsetMs });
    },
    /** Where a drifting clock has got to, recorded before the heal sets it true. */
    settle() {
      offsets.push({ at: ctx.recorder.clock.now(), node: name, offsetMs: Math.round(clocks.offsetMs(node)) });
    },
  };
}

function applied(step: ClockStep, label: string, offsets: readonly ClockOffset[], cutsConnections = false): Applied {
  return { kind: step.kind, target: label, lossy: false, cutsConnections, failedNodes: 0, detail: describeFault(step), clockOffsets: offsets };
}

const none = (step: ClockStep): Applied => ({ kind: step.kind, target: 'none', lossy: false, detail: `${describeFault(step)}: no such node` });

/** A node's clock steps by up to seconds and stays there; or a replica's does, and it is then promoted. */
export const clockJump = defineFault({
  name: 'clock-jump',
  description: "a node's wall clock steps forward or back (0.1 s, 1 s, 5 s) while it runs; or a replica's, which is then promoted",
  clockAssumption: (settings) =>
    `a server clock may step by ${settings[CLOCK_JUMP] ? '' : 'up to '}±${seconds(Math.max(...jumpsOf(settings)))}, on a master, on a replica, and on a replica then promoted`,
  settings: { [CLOCK_JUMP]: { description: 'the size of every clock step, ms, either way (0: 0.1, 1 or 5 s, drawn)', min: 0, max: 600_000, default: 0 } },
  backends: 'clocks',
  external: 'never',
  recordedAs: 'clock-jump',
  draw: {
    lane: 'cluster',
    class: CLOCKS_MOVE,
    step: ({ at, target, settings }) =>
      fc
        .record({
          kind: fc.constant('clock-jump' as const),
          atMs: at,
          target: target(['master', 'replica']),
          offsetMs: signed(jumpsOf(settings)),
          ms: fc.constantFrom(500, 2_000),
          failover: fc.boolean(),
        })
        .map(({ failover, ...step }): Of<'clock-jump'> => (failover && step.target.role === 'replica' ? { ...step, failover: true } : step)),
  },
  is: (step): step is Of<'clock-jump'> => step.kind === 'clock-jump',
  lossy: () => false,
  cutsConnections: (step) => step.failover === true,
  async apply(step, ctx) {
    const t = await resolveTarget(ctx.cluster, ctx.slotOf(step.target.key), step.target.role);
    if (!t) return none(step);
    const clock = mover(ctx, t.node);
    clock.set({ offsetMs: step.offsetMs });
    // The old master's leases are now expired by the new master's clock: a TTL replicates as an instant.
    // A failover that fails leaves the clock moved: the record keeps its offsets and says so.
    const failed = step.failover ? await ctx.cluster.failover(t.node, 'default').then(() => undefined, (e: Error) => e.message) : undefined;
    await sleep(step.ms);
    const record = applied(step, t.label, clock.offsets, step.failover === true);
    return failed === undefined ? record : { ...record, detail: `${record.detail} (the promotion failed: ${failed})` };
  },
  heal: healCluster,
});

/** A node's clock alternates between an offset and true, as a misconfigured time daemon fighting another does. */
export const clockStrobe = defineFault({
  name: 'clock-strobe',
  description: "a node's wall clock alternates between an offset (0.1 s or 1 s) and true, every 50 or 200 ms",
  clockAssumption: 'a server clock may strobe between true and ±1 s every 50 ms',
  backends: 'clocks',
  external: 'never',
  recordedAs: 'clock-strobe',
  draw: {
    lane: 'cluster',
    class: CLOCKS_MOVE,
    step: ({ at, target }) =>
      fc.record({
        kind: fc.constant('clock-strobe' as const),
        atMs: at,
        target: target(['master', 'replica']),
        offsetMs: signed(JUMPS_MS.slice(0, 2)),
        periodMs: fc.constantFrom(50, 200),
        ms: fc.constantFrom(1_000, 2_000),
      }),
  },
  is: (step): step is Of<'clock-strobe'> => step.kind === 'clock-strobe',
  lossy: () => false,
  cutsConnections: () => false,
  async apply(step, ctx) {
    const t = await resolveTarget(ctx.cluster, ctx.slotOf(step.target.key), step.target.role);
    if (!t) return none(step);
    const clock = mover(ctx, t.node);
    const until = ctx.recorder.clock.now() + step.ms;
    for (let shifted = true; ctx.recorder.clock.now() < until; shifted = !shifted) {
      clock.set({ offsetMs: shifted ? step.offsetMs : 0 });
      await sleep(Math.min(step.periodMs, Math.max(0, until - ctx.recorder.clock.now())));
    }
    return applied(step, t.label, clock.offsets);
  },
  heal: healCluster,
});

/** A node's clock runs fast or slow (a VM's clock after its host was busy), and is stepped back by the heal. */
export const clockDrift = defineFault({
  name: 'clock-drift',
  description: "a node's wall clock runs 5% or 20% fast or slow for a few seconds, then is set true",
  clockAssumption: 'a server clock may run 20% fast or slow for 3 s, then be stepped true',
  backends: 'clocks',
  external: 'never',
  recordedAs: 'clock-drift',
  draw: {
    lane: 'cluster',
    class: CLOCKS_MOVE,
    step: ({ at, target }) =>
      fc.record({
        kind: fc.constant('clock-drift' as const),
        atMs: at,
        target: target(['master', 'replica']),
        driftPpm: signed([50_000, 200_000]),
        ms: fc.constantFrom(1_000, 3_000),
      }),
  },
  is: (step): step is Of<'clock-drift'> => step.kind === 'clock-drift',
  lossy: () => false,
  cutsConnections: () => false,
  async apply(step, ctx) {
    const t = await resolveTarget(ctx.cluster, ctx.slotOf(step.target.key), step.target.role);
    if (!t) return none(step);
    const clock = mover(ctx, t.node);
    clock.set({ offsetMs: 0, driftPpm: step.driftPpm });
    await sleep(step.ms);
    clock.settle();
    return applied(step, t.label, clock.offsets);
  },
  heal: healCluster,
});
