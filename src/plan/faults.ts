/** The faults a plan may hold, by the names the CLI's --faults and the reports use (plan vocabulary, like ./schedule.ts). */

/** Every fault the generator can draw. Client-side ones shape the clients' steps; the rest are the nemesis's. */
export const FAULT_NAMES = [
  'lease-expiry',
  'client-freeze',
  'node-freeze',
  'script-flush',
  'busy-script',
  'failover',
  'failover-force',
  'failover-takeover',
  'latency',
  'slow-network',
  'timeout',
  'reset-peer',
  'kill-restart',
  'command-delay',
  'reply-loss',
] as const;
/** Partitions between nodes: only a backend that can cut one node off from another (netns) runs
 *  them, so `all` leaves them out and `--cluster netns` adds them to it. */
export const PARTITION_FAULT_NAMES = ['partition-one', 'partition-majority', 'partition-bridge', 'partition-primaries'] as const;
export type FaultName = (typeof FAULT_NAMES)[number] | (typeof PARTITION_FAULT_NAMES)[number];
