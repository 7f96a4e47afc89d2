import fc from 'fast-check';
import type { FaultName, ScheduleOptions } from './constraints.ts';
import { partitionKinds } from './partitions.ts';
import type { CommandFaultStep, FaultStep, FaultTarget, NetworkProfile } from '../plan/schedule.ts';

/**
 * The nemesis's faults by what they do to the implementation, with a weight each. Busy scripts count
 * double: theirs are the only errors ioredis passes on, so they alone reach an implementation's
 * error handling (fail open, retry and misread the retry), where client code goes wrong most.
 */
const FAULT_CLASSES: readonly { readonly weight: number; readonly names: readonly FaultName[] }[] = [
  { weight: 1, names: ['node-freeze', 'kill-restart'] }, // a node stops, then comes back
  { weight: 1, names: ['failover', 'failover-force', 'failover-takeover'] }, // a shard changes master
  { weight: 1, names: ['latency', 'timeout', 'reset-peer'] }, // a link misbehaves; ioredis mostly hides it
  { weight: 2, names: ['busy-script'] }, // Redis refuses with an error, which reaches the implementation
  { weight: 1, names: ['script-flush'] }, // Redis answers, but has forgotten the scripts
  { weight: 2, names: ['partition-one', 'partition-majority', 'partition-bridge', 'partition-primaries'] }, // nodes cut off from each other (netns only)
];

/** Nemesis faults drawn from the enabled set, at instants within the run's expected span. */
export function faultsArbitrary(options: ScheduleOptions, keys: number, horizonMs: number): fc.Arbitrary<FaultStep[]> {
  // Anywhere in the run, and a third of the time in its first 150 ms: clients start together, so
  // that is when the most operations overlap (and a slow fault first would push the rest past the end).
  const at = fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 0, max: Math.max(0, horizonMs) }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.min(150, Math.max(0, horizonMs)) }) },
  );
  const target = (roles: FaultTarget['role'][]): fc.Arbitrary<FaultTarget> =>
    fc.record({ key: fc.integer({ min: 0, max: keys - 1 }), role: fc.constantFrom(...roles) });
  const timeout = options.nodeTimeoutMs;
  const kinds: Partial<Record<FaultName, fc.Arbitrary<FaultStep>>> = {
    'node-freeze': fc.record({
      kind: fc.constant('node-freeze' as const),
      atMs: at,
      target: target(['master', 'replica']),
      // Shorter than the node timeout: a latency spike. Longer: an automatic failover.
      ms: fc.constantFrom(Math.round(timeout * 0.3), Math.round(timeout * 2.5)),
    }),
    'script-flush': fc.record({ kind: fc.constant('script-flush' as const), atMs: at }),
    // Bursts well inside the node timeout: the shard is busy, not gone, so no failover can follow.
    // Gaps let a retry through, which is when a retry that misreads the state shows.
    'busy-script': fc.record({
      kind: fc.constant('busy-script' as const),
      atMs: at,
      key: fc.integer({ min: 0, max: keys - 1 }),
      everyMaster: fc.boolean(),
      ms: fc.integer({ min: 300, max: Math.max(300, horizonMs) }),
      burstMs: fc.integer({ min: 100, max: Math.min(1_000, Math.max(100, Math.round(timeout * 0.4))) }),
      gapMs: fc.integer({ min: 50, max: 300 }),
    }),
    failover: fc.record({ kind: fc.constant('failover' as const), atMs: at, key: fc.integer({ min: 0, max: keys - 1 }), mode: fc.constant('default' as const) }),
    'failover-force': fc.record({ kind: fc.constant('failover' as const), atMs: at, key: fc.integer({ min: 0, max: keys - 1 }), mode: fc.constant('force' as const) }),
    'failover-takeover': fc.record({
      kind: fc.constant('failover' as const),
      atMs: at,
      key: fc.integer({ min: 0, max: keys - 1 }),
      mode: fc.constant('takeover' as const),
    }),
    // A slow link for several round trips: widens the gap between two commands of one operation.
    latency: fc
      .tuple(toxic('latency', at, target(['master']), fc.integer({ min: 300, max: 1_500 })), fc.integer({ min: 50, max: 400 }))
      .map(([step, delayMs]) => ({ ...step, delayMs })),
    timeout: toxic('timeout', at, target(['master']), fc.integer({ min: 100, max: 600 })),
    'reset-peer': toxic('reset_peer', at, target(['master']), fc.integer({ min: 50, max: 300 })),
    'kill-restart': fc.record({
      kind: fc.constant('kill-restart' as const),
      atMs: at,
      target: target(['master', 'replica']),
      downMs: fc.constantFrom(100, Math.round(timeout * 2.5)),
    }),
    ...partitionKinds(at, keys, timeout),
  };
  // A class first, then a kind within it, so three flavours of failover do not crowd out the one
  // fault that makes errors reach the implementation.
  const classes = FAULT_CLASSES.map((c) => ({ weight: c.weight, kinds: c.names.filter((f) => options.faults.has(f)).map((f) => kinds[f]!) })).filter(
    (c) => c.kinds.length > 0,
  );
  const cluster =
    classes.length === 0 || options.maxFaults === 0
      ? fc.constant([])
      : fc.array(fc.oneof(...classes.map((c) => ({ weight: c.weight, arbitrary: fc.oneof(...c.kinds) }))), { maxLength: options.maxFaults });
  return fc.tuple(cluster, commandFaultsArbitrary(options, keys, at, horizonMs)).map(([a, b]) => [...a, ...b].sort((x, y) => x.atMs - y.atMs));
}

/** Most command faults a run gets, on their own lane beside the cluster faults. */
const MAX_COMMAND_FAULTS = 3;

/**
 * Command faults (RESP point) on a lane of their own: they change nothing in the cluster, so they
 * need no heal and take nothing from the cluster faults' budget. They widen the one gap Toxiproxy
 * cannot: between two commands of one operation, or between a command's effect and its reply.
 * Seven runs in eight get at least one. Each stays armed for at least half the run's expected span
 * (a fault aimed at a command that comes once, late — a release — must still be armed when it
 * comes) and catches up to a few commands; holds are drawn around the leases (3/4 of one to two),
 * the width a read-then-write must survive; delays four times as often as lost replies (ioredis resends a
 * command whose reply was cut, so a lost reply mostly exercises retries and the checker's ghosts).
 */
function commandFaultsArbitrary(options: ScheduleOptions, keys: number, at: fc.Arbitrary<number>, horizonMs: number): fc.Arbitrary<CommandFaultStep[]> {
  const window = fc.integer({ min: Math.max(200, Math.round(horizonMs / 2)), max: Math.max(200, horizonMs) });
  const command = fc.integer({ min: 0, max: 999 });
  // One key in three: a fault on any key catches more, one on a key shows a counterexample its target.
  const key = fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: keys - 1 }) });
  // From under a lease to twice it: a hold that spans the rest of a lease, with time for another client to step in.
  const holdMs = fc.constantFrom(...options.leasesMs).chain((lease) => fc.integer({ min: Math.round(lease * 0.75), max: Math.min(1_500, lease * 2) }));
  // Four holds in five last until the key's own TTL has run out and another client has touched the
  // key (then 0-100 ms more; waiting at most holdMs past the TTL): a lease ends while its holder is
  // between two commands, and the holder's next command lands after someone else stepped in.
  const pastExpiryMs = fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: fc.integer({ min: 0, max: 100 }) });
  const withoutAbsent = <T extends object>(step: T): T => Object.fromEntries(Object.entries(step).filter(([, v]) => v !== undefined)) as T;
  const kinds: { weight: number; arbitrary: fc.Arbitrary<CommandFaultStep> }[] = [];
  if (options.faults.has('command-delay')) {
    kinds.push({
      weight: 4,
      arbitrary: fc
        .record({
          kind: fc.constant('command-delay' as const),
          atMs: at,
          ms: window,
          command,
          key,
          on: fc.constantFrom('reply' as const, 'request' as const),
          holdMs,
          pastExpiryMs,
          limit: fc.integer({ min: 1, max: 4 }),
        })
        .map(withoutAbsent),
    });
  }
  if (options.faults.has('reply-loss')) {
    kinds.push({
      weight: 1,
      arbitrary: fc
        .record({ kind: fc.constant('reply-loss' as const), atMs: at, ms: window, command, key, limit: fc.integer({ min: 1, max: 2 }) })
        .map(withoutAbsent),
    });
  }
  const most = Math.min(MAX_COMMAND_FAULTS, options.maxFaults);
  if (kinds.length === 0 || most === 0) return fc.constant([]);
  const fault = fc.oneof(...kinds);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<CommandFaultStep[]>([]) },
    { weight: 7, arbitrary: fc.array(fault, { minLength: 1, maxLength: most }) },
  );
}

function toxic(
  kind: 'latency' | 'timeout' | 'reset_peer',
  at: fc.Arbitrary<number>,
  target: fc.Arbitrary<FaultTarget>,
  ms: fc.Arbitrary<number>,
): fc.Arbitrary<FaultStep> {
  return fc.record({
    kind: fc.constant('toxic' as const),
    atMs: at,
    target,
    link: fc.constantFrom('client' as const, 'internal' as const),
    toxic: fc.constant(kind),
    ms,
  });
}

/** A slow network between clients and Redis for a third of the runs, when `slow-network` is enabled. */
export function networkArbitrary(options: ScheduleOptions): fc.Arbitrary<NetworkProfile | undefined> {
  if (!options.faults.has('slow-network')) return fc.constant(undefined);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.integer({ min: 5, max: 40 }).map((clientLatencyMs) => ({ clientLatencyMs })) }, // another zone
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 150 }).map((clientLatencyMs) => ({ clientLatencyMs })) }, // another region
  );
}
