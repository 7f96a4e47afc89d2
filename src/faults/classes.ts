import type { FaultClass } from './types.ts';

/**
 * The cluster faults' classes, in the order the generator draws among them, each with its weight.
 * Busy scripts count double: theirs are the only errors ioredis passes on, so they alone reach an
 * implementation's error handling (fail open, retry and misread the retry), where client code goes
 * wrong most. The order and weights are part of what a seed draws: changing them changes every schedule.
 */
export const NODE_STOPS: FaultClass = { what: 'a node stops, then comes back', weight: 1 };
export const MASTER_MOVES: FaultClass = { what: 'a shard changes master', weight: 1 };
export const LINK_MISBEHAVES: FaultClass = { what: 'a link misbehaves; ioredis mostly hides it', weight: 1 };
export const REDIS_REFUSES: FaultClass = {
  what: 'Redis refuses with an error, which reaches the implementation',
  weight: 2,
};
export const SCRIPTS_FORGOTTEN: FaultClass = { what: 'Redis answers, but has forgotten the scripts', weight: 1 };
export const NODES_CUT_OFF: FaultClass = { what: 'nodes cut off from each other (netns only)', weight: 2 };
/** Last, so that a fault set without clock faults draws every schedule as it did before they existed. */
export const CLOCKS_MOVE: FaultClass = { what: "a node's wall clock steps, strobes or drifts", weight: 1 };
/**
 * Last again, and only in the set on a server that evicts (src/certify/partition-faults.ts), so that
 * every draw on a server that keeps its scripts is what it was. A class of its own, not SCRIPT FLUSH's:
 * sharing one, `all,script-evict` ran it 0 to 5 times in 20
 * runs; weighted 2, it is about one cluster fault in four on a server that evicts.
 */
export const SCRIPTS_EVICTED: FaultClass = {
  what: "another tenant's scripts push the implementation's out of the cache (servers that evict)",
  weight: 2,
};

export const CLUSTER_FAULT_CLASSES: readonly FaultClass[] = [
  NODE_STOPS,
  MASTER_MOVES,
  LINK_MISBEHAVES,
  REDIS_REFUSES,
  SCRIPTS_FORGOTTEN,
  NODES_CUT_OFF,
  CLOCKS_MOVE,
  SCRIPTS_EVICTED,
];
