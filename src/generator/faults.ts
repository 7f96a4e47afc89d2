import fc from 'fast-check';
import type { ScheduleOptions } from './constraints.ts';
import { CLUSTER_FAULT_CLASSES } from '../faults/classes.ts';
import { FAULT_DESCRIPTORS, type AimContext, type DrawContext } from '../faults/index.ts';
import type { FaultStep, FaultTarget, NetworkProfile } from '../plan/schedule.ts';

/** The enabled faults' descriptors, in registry order. */
const enabled = (options: ScheduleOptions) => FAULT_DESCRIPTORS.filter((f) => options.faults.has(f.name));

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
  const ctx: DrawContext = {
    keys,
    horizonMs,
    nodeTimeoutMs: options.nodeTimeoutMs,
    leasesMs: options.leasesMs,
    at,
    target,
    settings: options.faultSettings,
  };
  // A class first, then a fault within it, so three flavours of failover do not crowd out the one
  // fault that makes errors reach the implementation.
  const classes = CLUSTER_FAULT_CLASSES.map((c) => ({
    weight: c.weight,
    kinds: enabled(options).flatMap((f) => (f.draw.lane === 'cluster' && f.draw.class === c ? [f.draw.step(ctx)] : [])),
  })).filter((c) => c.kinds.length > 0);
  const cluster =
    classes.length === 0 || options.maxFaults === 0
      ? fc.constant([])
      : fc.array(fc.oneof(...classes.map((c) => ({ weight: c.weight, arbitrary: fc.oneof(...c.kinds) }))), {
          maxLength: options.maxFaults,
        });
  return fc
    .tuple(cluster, commandFaultsArbitrary(options, ctx))
    .map(([a, b]) => [...a, ...b].sort((x, y) => x.atMs - y.atMs));
}

/** Most command faults a run gets, on their own lane beside the cluster faults. */
const MAX_COMMAND_FAULTS = 3;

/**
 * Command faults (RESP point) on a lane of their own: they change nothing in the cluster, so they
 * need no heal and take nothing from the cluster faults' budget. They widen the one gap Toxiproxy
 * cannot: between two commands of one operation, or between a command's effect and its reply.
 * Seven runs in eight get at least one, each drawn by its descriptor's weight.
 */
function commandFaultsArbitrary(options: ScheduleOptions, ctx: DrawContext): fc.Arbitrary<FaultStep[]> {
  const kinds = enabled(options).flatMap((f) =>
    f.draw.lane === 'command' ? [{ weight: f.draw.weight, arbitrary: f.draw.step(ctx) }] : [],
  );
  const most = Math.min(MAX_COMMAND_FAULTS, options.maxFaults);
  if (kinds.length === 0 || most === 0) return fc.constant([]);
  const fault = fc.oneof(...kinds);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<FaultStep[]>([]) },
    { weight: 7, arbitrary: fc.array(fault, { minLength: 1, maxLength: most }) },
  );
}

/** The run's network profile, drawn by the enabled network fault (slow-network) if any. */
export function networkArbitrary(options: ScheduleOptions): fc.Arbitrary<NetworkProfile | undefined> {
  const network = enabled(options).find((f) => f.draw.lane === 'network');
  return network?.draw.lane === 'network' ? network.draw.profile() : fc.constant(undefined);
}

/**
 * A hold aimed at one operation (FaultDraw's `aimed`), by the first enabled fault that aims one; none
 * when no such fault is enabled or the run may have no fault at all.
 */
export function aimedFaultArbitrary(options: ScheduleOptions, aim: AimContext): fc.Arbitrary<FaultStep[]> {
  if (options.maxFaults === 0) return fc.constant([]);
  const aimer = enabled(options).find((f) => f.draw.lane === 'command' && f.draw.aimed);
  return aimer?.draw.lane === 'command' && aimer.draw.aimed
    ? aimer.draw.aimed(aim).map((step) => [step])
    : fc.constant([]);
}
