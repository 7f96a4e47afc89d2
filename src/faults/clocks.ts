/**
 * Server clock faults, Jepsen's clock nemesis for Redis: a node's wall clock steps, strobes or drifts
 * while the node runs (the clock preload, native/clockshift.c), and the one heal sets it true. Redis
 * reads that clock for key expiry, TIME and failure detection, so a lease on a node whose clock moved
 * ends early or late in real time. Every offset set is recorded with its instant (clockOffsets); the
 * checker widens expiry windows by them only to tell a clock loss (the environment) from a bug.
 * The three differ only in what they draw and how they move the clock (`move`): one factory builds them.
 */
import fc from 'fast-check';
import type { Cluster } from '../cluster/types.ts';
import type { ClockOffset } from '../history/types.ts';
import { sleep } from '../history/clock.ts';
import { describeFault, type ClockStep } from '../plan/schedule.ts';
import { CLOCKS_MOVE } from './classes.ts';
import { healCluster } from './heal.ts';
import { resolveTarget } from './target.ts';
import { defineFault, type DrawContext, type FaultSetting, type NemesisContext } from './types.ts';

type Of<K extends ClockStep['kind']> = Extract<ClockStep, { kind: K }>;
type Settings = Readonly<Record<string, number>>;

/** Steps a team meets: an NTP step of a tenth of a second, a VM resumed a second late, a clock set by hand. */
const JUMPS_MS = [100, 1_000, 5_000];
/** `--set clock-jump=MS`: every step that size, either way (0: drawn from JUMPS_MS). */
export const CLOCK_JUMP = 'clock-jump';
const jumpsOf = (settings: Settings = {}) => (settings[CLOCK_JUMP] ? [settings[CLOCK_JUMP]] : JUMPS_MS);
const seconds = (ms: number) => `${ms / 1000} s`;
const signed = (sizes: readonly number[]) => fc.constantFrom(...sizes.flatMap((ms) => [ms, -ms]));

/** The clocks of a cluster that has them, or the one line saying why this one cannot move a clock. */
function clocksOf(cluster: Cluster): NonNullable<Cluster['clocks']> {
  if (!cluster.clocks)
    throw new Error(
      `a ${cluster.kind} cluster's servers do not run under the clock preload: their clocks cannot be moved`,
    );
  return cluster.clocks;
}

/** One node's clock as a fault moves it: every setting recorded with its instant. */
class Mover {
  readonly offsets: ClockOffset[] = [];
  private readonly clocks: NonNullable<Cluster['clocks']>;
  private readonly name: string;

  constructor(
    private readonly ctx: NemesisContext,
    readonly node: number,
  ) {
    this.clocks = clocksOf(ctx.cluster);
    this.name = ctx.cluster.nodes[node].name;
  }

  set(setting: { offsetMs: number; driftPpm?: number }): void {
    this.clocks.set(this.node, setting);
    this.record(setting.offsetMs);
  }

  /** Where a drifting clock has got to, recorded before the heal sets it true. */
  settle(): void {
    this.record(Math.round(this.clocks.offsetMs(this.node)));
  }

  now(): number {
    return this.ctx.recorder.clock.now();
  }

  private record(offsetMs: number): void {
    this.offsets.push({ at: this.now(), node: this.name, offsetMs });
  }
}

/** What a clock fault's move says beyond its offsets: whether it cut connections, and anything that failed. */
interface Moved {
  readonly cutsConnections?: boolean;
  readonly note?: string;
}

interface ClockFault<K extends ClockStep['kind']> {
  readonly name: K;
  readonly description: string;
  readonly clockAssumption: string | ((settings: Settings) => string);
  readonly settings?: Readonly<Record<string, FaultSetting>>;
  /** The step's own fields, beside its kind, instant and target (`shape` may settle them once the target is known). */
  readonly fields: (ctx: DrawContext) => fc.Arbitrary<Record<string, unknown>>;
  readonly shape?: (step: Of<K>) => Of<K>;
  readonly cutsConnections?: (step: Of<K>) => boolean;
  /** Move the clock for the step's length (the heal sets it true). */
  // biome-ignore lint/suspicious/noConfusingVoidType: most moves return nothing, and an async function without a return is Promise<void>
  move(step: Of<K>, clock: Mover, ctx: NemesisContext): Promise<Moved | void>;
}

function clockFault<K extends ClockStep['kind']>(f: ClockFault<K>) {
  return defineFault({
    name: f.name,
    description: f.description,
    clockAssumption: f.clockAssumption,
    ...(f.settings ? { settings: f.settings } : {}),
    backends: 'clocks',
    external: 'never',
    recordedAs: f.name,
    draw: {
      lane: 'cluster',
      class: CLOCKS_MOVE,
      step: (ctx) =>
        fc
          .tuple(ctx.at, ctx.target(['master', 'replica']), f.fields(ctx))
          .map(([atMs, target, fields]) =>
            (f.shape ?? ((step: Of<K>) => step))({ kind: f.name, atMs, target, ...fields } as unknown as Of<K>),
          ),
    },
    is: (step): step is Of<K> => step.kind === f.name,
    lossy: () => false,
    cutsConnections: (step) => f.cutsConnections?.(step) ?? false,
    async apply(step, ctx) {
      const { target } = step as ClockStep;
      const t = await resolveTarget(ctx.cluster, ctx.slotOf(target.key), target.role);
      if (!t) return { kind: f.name, target: 'none', lossy: false, detail: `${describeFault(step)}: no such node` };
      const clock = new Mover(ctx, t.node);
      const moved = (await f.move(step, clock, ctx)) ?? {};
      const detail = `${describeFault(step)}${moved.note ? ` (${moved.note})` : ''}`;
      return {
        kind: f.name,
        target: t.label,
        lossy: false,
        cutsConnections: moved.cutsConnections ?? false,
        failedNodes: 0,
        detail,
        clockOffsets: clock.offsets,
      };
    },
    heal: healCluster,
  });
}

/** A node's clock steps by up to seconds and stays there; or a replica's does, and it is then promoted. */
export const clockJump = clockFault({
  name: 'clock-jump',
  description:
    "a node's wall clock steps forward or back (0.1 s, 1 s, 5 s) while it runs; or a replica's, which is then promoted",
  clockAssumption: (settings) =>
    `a server clock may step by ${settings[CLOCK_JUMP] ? '' : 'up to '}±${seconds(Math.max(...jumpsOf(settings)))}, on a master, on a replica, and on a replica then promoted`,
  settings: {
    [CLOCK_JUMP]: {
      description: 'the size of every clock step, ms, either way (0: 0.1, 1 or 5 s, drawn)',
      min: 0,
      max: 600_000,
      default: 0,
    },
  },
  fields: ({ settings }) =>
    fc.record({ offsetMs: signed(jumpsOf(settings)), ms: fc.constantFrom(500, 2_000), failover: fc.boolean() }),
  // `failover` is drawn for every step and kept only on a replica's: a master has no one to promote it over.
  shape: ({ failover, ...step }) => (failover && step.target.role === 'replica' ? { ...step, failover: true } : step),
  cutsConnections: (step) => step.failover === true,
  async move(step, clock, ctx) {
    clock.set({ offsetMs: step.offsetMs });
    // The old master's leases are now expired by the new master's clock: a TTL replicates as an instant.
    // A failover that fails leaves the clock moved: the record keeps its offsets and says so.
    const failed = step.failover
      ? await ctx.cluster.failover(clock.node, 'default').then(
          () => undefined,
          (e: Error) => e.message,
        )
      : undefined;
    await sleep(step.ms);
    return {
      cutsConnections: step.failover === true,
      ...(failed === undefined ? {} : { note: `the promotion failed: ${failed}` }),
    };
  },
});

/** A node's clock alternates between an offset and true, as a misconfigured time daemon fighting another does. */
export const clockStrobe = clockFault({
  name: 'clock-strobe',
  description: "a node's wall clock alternates between an offset (0.1 s or 1 s) and true, every 50 or 200 ms",
  clockAssumption: 'a server clock may strobe between true and ±1 s every 50 ms',
  fields: () =>
    fc.record({
      offsetMs: signed(JUMPS_MS.slice(0, 2)),
      periodMs: fc.constantFrom(50, 200),
      ms: fc.constantFrom(1_000, 2_000),
    }),
  async move(step, clock) {
    const until = clock.now() + step.ms;
    for (let shifted = true; clock.now() < until; shifted = !shifted) {
      clock.set({ offsetMs: shifted ? step.offsetMs : 0 });
      await sleep(Math.min(step.periodMs, Math.max(0, until - clock.now())));
    }
  },
});

/** A node's clock runs fast or slow (a VM's clock after its host was busy), and is stepped back by the heal. */
export const clockDrift = clockFault({
  name: 'clock-drift',
  description: "a node's wall clock runs 5% or 20% fast or slow for a few seconds, then is set true",
  clockAssumption: 'a server clock may run 20% fast or slow for 3 s, then be stepped true',
  fields: () => fc.record({ driftPpm: signed([50_000, 200_000]), ms: fc.constantFrom(1_000, 3_000) }),
  async move(step, clock) {
    clock.set({ offsetMs: 0, driftPpm: step.driftPpm });
    await sleep(step.ms);
    clock.settle();
  },
});
