/**
 * Which faults a job may run where: the one place that decides it, from the backend (`--cluster`),
 * the topology (`--topology`) and the server (what the job probes on it). Partitions need the netns
 * backend, clock faults a backend whose servers run under the clock preload, independent masters and
 * Sentinel run only what has a meaning there, and `all` takes script eviction only on a server that
 * evicts.
 */
import { clockLibrary, ClockLibraryError } from '../clock/library.ts';
import type { ServerFeatures } from '../cluster/features.ts';
import { CLOCKS_MOVE, LINK_MISBEHAVES, NODE_STOPS, SCRIPTS_EVICTED, SCRIPTS_FORGOTTEN } from '../faults/classes.ts';
import { CLOCK_FAULT_NAMES, FAULT_DESCRIPTORS, type FaultName } from '../faults/index.ts';
import type { FaultClass } from '../faults/types.ts';
import { CLUSTER_TOPOLOGY, describeTopology, type TopologySpec } from '../plan/topology.ts';

/** The faults only the netns backend can run (partitions between nodes), by their descriptors. */
const NETNS_ONLY: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'netns').map((f) => f.name);

/**
 * What independent masters can run, by what a fault does (its lane and class, from its descriptor):
 * the clients' own faults and the run's network profile; a node that stops and comes back (a master
 * frozen, or killed and restarted empty); a link that misbehaves (Toxiproxy on a master's client
 * link, the only link it has); scripts forgotten (SCRIPT FLUSH) or evicted; clocks that move. Not a shard
 * changing master (no replica), Redis refusing (busy scripts, aimed at a key's shard), nodes cut off
 * (no netns) or the command faults (aimed by a key's shard, which these masters do not have: each holds every key).
 */
const MASTERS_CLASSES: readonly FaultClass[] = [
  NODE_STOPS,
  LINK_MISBEHAVES,
  SCRIPTS_FORGOTTEN,
  CLOCKS_MOVE,
  SCRIPTS_EVICTED,
];
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

/** The faults only a server that evicts EVAL-loaded scripts gives a meaning to, by their descriptors. */
const EVICTING_ONLY: readonly FaultName[] = FAULT_DESCRIPTORS.filter((f) => f.backends === 'evicting').map(
  (f) => f.name,
);

/** Whether a --faults list (absent: the default, `all`) asks for `all`, alone or with what it leaves out. */
export const asksAll = (list: string | undefined): boolean =>
  (list ?? 'all')
    .split(',')
    .map((s) => s.trim())
    .includes('all');

/**
 * The faults a job runs on the server it has probed: `all` takes script-evict where the server evicts
 * EVAL-loaded scripts (Redis 7.4+, Valkey 8), so that every implementation's NOSCRIPT path meets an
 * eviction with no flush, restart or failover; where it keeps them (6.2, 7.0), or was not probed, the
 * set is the one asked, and every schedule is drawn as before. Independent masters take it as well:
 * they run script-evict when it is named.
 */
export function faultsForServer(
  asked: readonly FaultName[],
  all: boolean,
  features: ServerFeatures | undefined,
  topology: TopologySpec = CLUSTER_TOPOLOGY,
): FaultName[] {
  if (!all || !features?.evictsScripts) return [...asked];
  const runs = (f: FaultName) => topology.kind !== 'masters' || MASTERS_RUN.includes(f);
  return [...new Set([...asked, ...EVICTING_ONLY.filter(runs)])];
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
    // Compose's servers are started by chaoslua, but inside images, where the preload is not.
    const why =
      kind === 'compose'
        ? "a compose cluster's servers run in their images without the clock preload"
        : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} cluster's servers are not started by chaoslua`;
    return `--faults ${named.join(', ')} needs --cluster local or netns (${why}, so their clocks cannot be moved)`;
  }
  try {
    clockLibrary();
    return undefined;
  } catch (error) {
    if (error instanceof ClockLibraryError) return `--faults ${named.join(', ')}: ${error.message}`;
    throw error;
  }
}
