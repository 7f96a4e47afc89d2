/**
 * A fault is one descriptor, the way Jepsen bundles a nemesis package: its name (the word --faults
 * and the reports use), a one-line description, where it may run, how the generator draws it, how it
 * is applied and healed, and whether it may lose acknowledged writes. The generator, the nemesis, the
 * job (certify) and the CLI read the descriptors (./index.ts); none keeps a list of fault names.
 */
import type fc from 'fast-check';
import type { Cluster } from '../cluster/types.ts';
import type { Recorder } from '../history/recorder.ts';
import type { FaultKind, FaultRecord } from '../history/types.ts';
import type { FaultStep, FaultTarget, NetworkProfile } from '../plan/schedule.ts';

/** What a fault acts on and records into while it runs (the nemesis's lanes hand it over). */
export interface NemesisContext {
  readonly cluster: Cluster;
  readonly recorder: Recorder;
  /** Slot of a logical key, to aim at its shard. */
  readonly slotOf: (key: number) => number;
  readonly nodeTimeoutMs: number;
  /** The run's network profile, put back after every heal. */
  readonly network?: NetworkProfile;
  /** The data command names the client links have carried (sorted), for command faults to pick
   *  from; absent on a cluster without RESP points. Kept by the command lane across its faults. */
  readonly commandNames?: { current(): string[] };
  /** When the clients invoke their operations, for faults aimed at one (absent: no fault may aim). */
  readonly operations?: OperationWatch;
  /**
   * The slot of the run's race key (src/generator/races.ts), when it stages one: windowed command
   * faults leave it alone, so that what holds the race is its own aimed hold, not a delay that
   * happened to catch the contender and made it arrive after the racer.
   */
  readonly raceSlot?: number;
}

/** Operations of the schedule as the clients invoke them (the runner keeps it; aimed faults wait on it). */
export interface OperationWatch {
  /**
   * Resolves when client `client` invokes its operation number `op` (counted from 0 over its
   * operations), with the operation's logical key and a promise of its end (answered, failed or
   * given up on); with undefined once the client has finished its steps without getting there.
   */
  invoked(client: number, op: number): Promise<InvokedOperation | undefined>;
}

export interface InvokedOperation {
  readonly key: number;
  /** The history's clock when it was invoked. */
  readonly at: number;
  readonly ended: Promise<void>;
}

/** What an aimed fault's draw is told: the one operation it aims at (a race's, src/generator/races.ts), and what its read must outlast. */
export interface AimContext {
  readonly client: number;
  /** Its number among the client's operations, from 0. */
  readonly op: number;
  /** The lease the operation's key was taken with: the hold must outlast what is left of it. */
  readonly leaseMs: number;
  /**
   * What the operation races: `lease-end`, a lease running out (hold until the key's TTL has run out
   * and another client touched it); `last-place`, another client taking the key's last place (hold
   * until another client's command on the key was answered).
   */
  readonly instant: 'lease-end' | 'last-place';
  /** The race allows refusing the operation's first command instead of holding it (RaceSource.refusable). */
  readonly refusable?: boolean;
}

/** What one applied fault says about itself, for its record in the history. */
export type Applied = Pick<
  FaultRecord,
  'kind' | 'target' | 'lossy' | 'detail' | 'cutsConnections' | 'failedNodes' | 'clockOffsets'
> & {
  /** When it began, for a fault that waited for something before it began (an aimed fault: its operation). */
  readonly startedAt?: number;
};

/** What a fault's draw may use: the schedule's shape, drawn before its faults. */
export interface DrawContext {
  /** Logical keys of the schedule. */
  readonly keys: number;
  /** The span the clients are expected to take, ms. */
  readonly horizonMs: number;
  readonly nodeTimeoutMs: number;
  /** Leases the clients ask for, ms. */
  readonly leasesMs: readonly number[];
  /** When the fault fires (drawn alike for every fault). */
  readonly at: fc.Arbitrary<number>;
  /** A node by the shard of a logical key and its role there. */
  readonly target: (roles: FaultTarget['role'][]) => fc.Arbitrary<FaultTarget>;
  /** The faults' settings as the job filled them (`--set clock-jump=1000`); absent in older callers. */
  readonly settings?: Readonly<Record<string, number>>;
}

/**
 * Cluster faults grouped by what they do to the implementation: the generator draws a class by its
 * weight, then a fault within it, so several flavours of one thing do not crowd out the others.
 */
export interface FaultClass {
  readonly what: string;
  readonly weight: number;
}

/** How (and by whom) a fault gets into a schedule. */
export type FaultDraw =
  /** The clients' own steps (a pause or a freeze past the lease), drawn by the patterns' sessions. */
  | { readonly lane: 'sessions' }
  /** A network profile for the whole run. */
  | { readonly lane: 'network'; readonly profile: () => fc.Arbitrary<NetworkProfile | undefined> }
  /** A clock offset per logical client for the whole run (`settings`: the descriptor's, filled), drawn
   *  after everything else in a schedule, so a fault set without it draws every schedule as before. */
  | {
      readonly lane: 'client-clocks';
      readonly offsets: (
        clients: number,
        settings: Readonly<Record<string, number>>,
      ) => fc.Arbitrary<readonly number[] | undefined>;
    }
  /** Nemesis steps on the cluster lane: one at a time, each healed before the next. */
  | {
      readonly lane: 'cluster';
      readonly class: FaultClass;
      readonly step: (ctx: DrawContext) => fc.Arbitrary<FaultStep>;
    }
  /** Nemesis steps on the command lane (RESP points): nothing to heal, their own budget. `aimed`:
   *  a step aimed at one operation the generator names (a race's, src/generator/races.ts), drawn after every
   *  other fault (so a seed's other faults are what they were), run when its operation comes. */
  | {
      readonly lane: 'command';
      readonly weight: number;
      readonly step: (ctx: DrawContext) => fc.Arbitrary<FaultStep>;
      readonly aimed?: (ctx: AimContext) => fc.Arbitrary<FaultStep>;
    };

export interface FaultDescriptor<N extends string = string, S extends FaultStep = FaultStep> {
  readonly name: N;
  /** One line, for --help and error messages. */
  readonly description: string;
  /** `netns`: only a backend that can cut nodes off from each other runs it; `--faults all` leaves it
   *  out elsewhere and takes it there. `clocks`: only a backend whose servers run under the clock
   *  preload (local, netns) runs it; named, not in `all` (`--faults all,clocks` adds them). `evicting`:
   *  it does something only on a server that evicts EVAL-loaded scripts (Redis 7.4+, Valkey 8): in `all`
   *  there, once the job has probed the server (src/certify/partition-faults.ts); elsewhere only named. */
  readonly backends: 'any' | 'netns' | 'clocks' | 'evicting';
  /** On an external cluster: `client` needs nothing but a client; `destructive` runs only with
   *  --allow-destructive (flushes scripts, blocks a master, moves slots); `never` needs the nodes'
   *  processes or proxies. */
  readonly external: 'client' | 'destructive' | 'never';
  /** Numbers a job may set for it (`--set NAME=VALUE`, validated with the pattern's settings), each
   *  filled with its default when the fault is in the set. Absent: nothing to set. */
  readonly settings?: Readonly<Record<string, FaultSetting>>;
  /** What a certificate earned with this fault in the set says of the clocks it ran under (a clock
   *  fault's bounds): a line, or a line made from the fault's settings as the job filled them. */
  readonly clockAssumption?: string | ((settings: Readonly<Record<string, number>>) => string);
  /** The kind its record in the history has; absent: it leaves no record of its own (a plain pause). */
  readonly recordedAs?: FaultKind;
  readonly draw: FaultDraw;
  /** Whether a nemesis step is this fault (a failover step is `failover`, `-force` or `-takeover` by its mode). */
  is?(step: FaultStep): step is S;
  /** Could the step lose writes a master acknowledged? Decided before it runs, so a failed attempt stays conservative. */
  lossy?(step: S): boolean;
  /** Could the step cut clients' connections? Before it runs, for a failed attempt; `apply` says what happened. */
  cutsConnections?(step: S): boolean;
  /** Inject the step, hold it for its length, and say what it did; undefined when it never fired
   *  (an aimed fault whose operation never came), which leaves no record. */
  apply?(step: S, ctx: NemesisContext): Promise<Applied | undefined>;
  /** Bring the cluster back to ready after the step (whether apply succeeded or not). Absent: nothing to heal. */
  heal?(ctx: NemesisContext): Promise<void>;
}

/** A fault's setting: an integer within its limits, its default when not set (as a pattern's SessionSetting). */
export interface FaultSetting {
  /** What it sets, with its unit, as --help lists it. */
  readonly description: string;
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** A descriptor, its name kept as a literal type so the registry can derive FaultName from it. */
export const defineFault = <N extends string, S extends FaultStep = FaultStep>(
  d: FaultDescriptor<N, S>,
): FaultDescriptor<N, S> => d;
