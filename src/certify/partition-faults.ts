import { clockLibrary, ClockLibraryError } from '../clock/library.ts';
import { CLOCK_FAULT_NAMES, FAULT_DESCRIPTORS, type FaultName } from '../faults/index.ts';

/** The faults only the netns backend can run (partitions between nodes), by their descriptors. */
const NETNS_ONLY: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'netns').map((f) => f.name);

/**
 * The faults a job runs on a cluster of `kind`: `--faults all` (the default) on the netns backend
 * takes the partitions as well, since only that backend can cut one node off from another.
 */
export function faultsForBackend(kind: string, asked: readonly FaultName[], list: string | undefined): FaultName[] {
  const all = (list ?? 'all').trim() === 'all';
  return kind === 'netns' && all ? [...new Set([...asked, ...NETNS_ONLY])] : [...asked];
}

/** A partition named on a backend that cannot make it is a usage error (it would run without it). */
export function refusedPartitionFaults(kind: string, asked: readonly FaultName[]): string | undefined {
  const named = asked.filter((f) => NETNS_ONLY.includes(f));
  if (kind === 'netns' || named.length === 0) return undefined;
  return `--faults ${named.join(', ')} needs --cluster netns (partitions between nodes need each node in a network namespace of its own)`;
}

/** Backends whose servers the harness starts under the clock preload, and so can move their clocks. */
const CLOCKED_BACKENDS = ['local', 'netns'];

/**
 * A clock fault named where no clock can move: on a cluster someone else runs (its servers keep their
 * own clocks), or where the preload cannot be built (no C compiler). One line saying which and why.
 */
export function refusedClockFaults(kind: string, asked: readonly FaultName[]): string | undefined {
  const named = asked.filter((f) => CLOCK_FAULT_NAMES.includes(f));
  if (named.length === 0) return undefined;
  if (!CLOCKED_BACKENDS.includes(kind)) {
    return `--faults ${named.join(', ')} needs --cluster local or netns (${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} cluster's servers are not started by chaoslua, so their clocks cannot be moved)`;
  }
  try {
    clockLibrary();
    return undefined;
  } catch (error) {
    if (error instanceof ClockLibraryError) return `--faults ${named.join(', ')}: ${error.message}`;
    throw error;
  }
}
