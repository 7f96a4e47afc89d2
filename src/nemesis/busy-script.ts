import type { Cluster } from '../cluster/types.ts';

/**
 * A script that spins for `ms` and then returns by itself, so a harness that dies mid-fault never
 * leaves a shard wedged. It writes nothing, so nothing is replicated and no data is at risk.
 */
const SPIN = `
local start = redis.call('TIME')
local t0 = start[1] * 1000000 + start[2]
while true do
  local now = redis.call('TIME')
  if now[1] * 1000000 + now[2] - t0 >= tonumber(ARGV[1]) * 1000 then return 1 end
end`;

/** Longest burst: inside the control plane's 2 s command timeout, with room for a loaded box. */
export const MAX_BUSY_MS = 1_500;

/** How long a script runs before Redis answers other clients BUSY (10 ms: the fault starts at once). */
const THRESHOLD_MS = 10;

/**
 * A long-running script on one node: for `ms`, every other command sent to it is refused with a
 * BUSY error straight away. This is the fault that makes Redis errors reach an implementation
 * (ioredis resends through dropped connections and toxics, but passes BUSY through), so code that
 * mishandles a failed call — fails open, retries and misreads its own retry — gets exercised.
 */
export async function busyScript(cluster: Cluster, node: number, ms: number): Promise<void> {
  // The control plane gives up on a command after 2 s; the script must end well before that.
  if (!(ms > 0 && ms <= MAX_BUSY_MS)) throw new RangeError(`busyScript: ms must be in (0, ${MAX_BUSY_MS}], got ${ms}`);
  const before = (await cluster.command(node, 'CONFIG', 'GET', 'busy-reply-threshold')) as string[];
  const previous = before[1] ?? '5000';
  await cluster.command(node, 'CONFIG', 'SET', 'busy-reply-threshold', THRESHOLD_MS);
  try {
    await cluster.command(node, 'EVAL', SPIN, 0, ms);
  } finally {
    await cluster.command(node, 'CONFIG', 'SET', 'busy-reply-threshold', previous);
  }
}
