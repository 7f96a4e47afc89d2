/**
 * The fault registry: one descriptor per fault (./types.ts), in the order --faults lists them, the
 * reports name them and the generator offers them (the order is part of what a seed draws). A new
 * fault is a descriptor and a line here; the generator, the nemesis, the job and the CLI read it.
 */
import type { FaultStep } from '../plan/schedule.ts';
import { failoverDefault, failoverForce, failoverTakeover } from './failover.ts';
import { clientFreeze, leaseExpiry } from './client.ts';
import { clientClock } from './client-clock.ts';
import { clockDrift, clockJump, clockStrobe } from './clocks.ts';
import { commandDelay, replyLoss } from './commands.ts';
import { killRestart, nodeFreeze } from './node.ts';
import { partitionBridge, partitionMajority, partitionOne, partitionPrimaries } from './partitions.ts';
import { busyScript, scriptFlush } from './scripts.ts';
import { scriptEvict } from './script-evict.ts';
import { slowNetwork } from './slow-network.ts';
import { latency, resetPeer, timeout } from './toxics.ts';
import type { FaultDescriptor } from './types.ts';

export const FAULTS = [
  leaseExpiry,
  clientFreeze,
  clientClock,
  nodeFreeze,
  scriptFlush,
  busyScript,
  failoverDefault,
  failoverForce,
  failoverTakeover,
  latency,
  slowNetwork,
  timeout,
  resetPeer,
  killRestart,
  commandDelay,
  replyLoss,
  partitionOne,
  partitionMajority,
  partitionBridge,
  partitionPrimaries,
  clockJump,
  clockStrobe,
  clockDrift,
  scriptEvict,
] as const;

/** A fault's name: the word --faults, the certificate and the coverage's needs use. */
export type FaultName = (typeof FAULTS)[number]['name'];

/** Every descriptor, as the stages that iterate them read it. */
export const FAULT_DESCRIPTORS: readonly FaultDescriptor<FaultName>[] = FAULTS as readonly FaultDescriptor<FaultName>[];

/** The faults `--faults all` means on every backend. */
export const FAULT_NAMES: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'any').map(
  (f) => f.name,
);
/** Partitions between nodes: only a backend that can cut one node off from another (netns) runs
 *  them, so `all` leaves them out and `--cluster netns` adds them to it. */
export const PARTITION_FAULT_NAMES: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'netns').map(
  (f) => f.name,
);

/** A node's clock moving: only a backend whose servers run under the clock preload runs them, and
 *  only when named (`--faults all,clocks`): `all` keeps the schedules every seed drew before them. */
export const CLOCK_FAULT_NAMES: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'clocks').map(
  (f) => f.name,
);

export const isFaultName = (name: string): name is FaultName => FAULT_DESCRIPTORS.some((f) => f.name === name);

export function faultNamed(name: FaultName): FaultDescriptor<FaultName> {
  return FAULT_DESCRIPTORS.find((f) => f.name === name)!;
}

/** The descriptor a nemesis step belongs to. */
export function faultOf(step: FaultStep): FaultDescriptor<FaultName> {
  const found = FAULT_DESCRIPTORS.find((f) => f.is?.(step));
  if (!found) throw new RangeError(`no fault describes a step of kind '${(step as { kind: string }).kind}'`);
  return found;
}

export type {
  AimContext,
  Applied,
  DrawContext,
  FaultDescriptor,
  InvokedOperation,
  NemesisContext,
  OperationWatch,
} from './types.ts';
