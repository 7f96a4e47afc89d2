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
export type FaultName = (typeof FAULT_NAMES)[number];
