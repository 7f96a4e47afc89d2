/**
 * Which faults a job may run where: the one place that decides it, from the backend (`--cluster`)
 * and the topology (`--topology`). Partitions need the netns backend, clock faults a backend whose
 * servers run under the clock preload, and independent masters and Sentinel run only what has a
 * meaning there.
 */
import { clockLibrary, ClockLibraryError } from '../clock/library.ts';
import { CLOCKS_MOVE, LINK_MISBEHAVES, NODE_STOPS, SCRIPTS_FORGOTTEN } from '../faults/classes.ts';
import { CLOCK_FAULT_NAMES, FAULT_DESCRIPTORS, type FaultName } from '../faults/index.ts';
import type { FaultClass } from '../faults/types.ts';
import { CLUSTER_TOPOLOGY, describeTopology, type TopologySpec } from '../plan/topology.ts';

/** The faults only the netns backend can run (partitions between nodes), by their descriptors. */
const NETNS_ONLY: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'netns').map((f) => f.name);

/**
 * What independent masters can run, by what a fault does (its lane and class, from its descriptor):
 * the clients' own faults and the run's network profile; a node that stops and comes back (a master
 * frozen, or killed and restarted empty); a link that misbehaves (Toxiproxy on a master's client
 * link, the only link it has); scripts forgotten (SCRIPT FLUSH); clocks that move. Not a shard
 * changing master (no replica), Redis refusing (busy scripts, aimed at a key's shard), nodes cut off
 * (no netns) or the command faults (aimed by a key's shard, which these masters do not have: each holds every key).
 */
const MASTERS_CLASSES: readonly FaultClass[] = [NODE_STOPS, LINK_MISBEHAVES, SCRIPTS_FORGOTTEN, CLOCKS_MOVE];
const MASTERS_RUN: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) =>
  f.draw.lane === 'cluster'
    ? f.backends !== 'netns' && MASTERS_CLASSES.includes(f.draw.class)
    : f.draw.lane !== 'command',
).map((f) => f.name);

/**
 * What a primary with replicas under Sentinel can run: every fault of a Redis Cluster but the two
 * failovers Sentinel has no form of (FORCE and TAKEOVER are CLUSTER FAILOVER's; `failover` there is
 * SENTINEL FAILOVER, src/cluster/sentinel.ts) and the partitions (no netns). Aimed at a key's shard,
 * a fault lands on the primary (it holds every slot) or a replica; the Sentinels are never a target.
 */
const SENTINEL_REFUSED: readonly FaultName[] = ['failover-force', 'failover-takeover'];
const SENTINEL_RUN: readonly FaultName[] = FAULT_DESCRIPTORS.filter(
  (f) => f.backends !== 'netns' && !SENTINEL_REFUSED.includes(f.name),
).map((f) => f.name);

/** The names a --faults list gives one by one (not through all, clocks or none). */
const namedIn = (list: string | undefined): string[] =>
  (list ?? 'all')
    .split(',')
    .map((s) => s.trim())
    .filter((n) => n !== 'all' && n !== 'clocks' && n !== 'none');

/**
 * The faults a job runs on a cluster of `kind` and `topology`: `--faults all` (the default) on the
 * netns backend takes the partitions as well, since only that backend can cut one node off from
 * another; on independent masters, `all` (and `clocks`) mean what those masters can run.
 */
export function faultsForBackend(
  kind: string,
  asked: readonly FaultName[],
  list: string | undefined,
  topology: TopologySpec = CLUSTER_TOPOLOGY,
): FaultName[] {
  if (topology.kind === 'masters') return asked.filter((f) => MASTERS_RUN.includes(f));
  if (topology.kind === 'sentinel') return asked.filter((f) => SENTINEL_RUN.includes(f));
  const all = (list ?? 'all').trim() === 'all';
  return kind === 'netns' && all ? [...new Set([...asked, ...NETNS_ONLY])] : [...asked];
}

/** Every refusal of a fault list on a backend and topology, the first that applies: one line, or undefined. */
export function refusedBackendFaults(
  kind: string,
  topology: TopologySpec,
  asked: readonly FaultName[],
  list: string | undefined,
): string | undefined {
  return (
    refusedTopologyFaults(topology, list) ?? refusedPartitionFaults(kind, asked) ?? refusedClockFaults(kind, asked)
  );
}

/** A fault named one by one that the topology cannot run (it would run without it): which, and why. */
export function refusedTopologyFaults(topology: TopologySpec, list: string | undefined): string | undefined {
  if (topology.kind === 'sentinel') {
    const named = namedIn(list).filter((n) => !SENTINEL_RUN.includes(n as FaultName));
    if (named.length === 0) return undefined;
    return `--faults ${named.join(', ')} cannot run on --topology ${describeTopology(topology)} (Sentinel has one failover, SENTINEL FAILOVER, which is --faults failover there; partitions need --cluster netns)`;
  }
  if (topology.kind !== 'masters') return undefined;
  const named = namedIn(list).filter((n) => !MASTERS_RUN.includes(n as FaultName));
  if (named.length === 0) return undefined;
  return `--faults ${named.join(', ')} cannot run on --topology ${describeTopology(topology)} (independent masters have no replicas to fail over to, no shards to aim at and no partitions; they run ${MASTERS_RUN.join(', ')})`;
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
