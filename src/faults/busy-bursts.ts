import type { Cluster } from '../cluster/types.ts';
import { sleep } from '../history/clock.ts';

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

export interface BusyPlan {
  /** How long the fault lasts. */
  readonly ms: number;
  /** One script's run; at most MAX_BUSY_MS. */
  readonly burstMs: number;
  /** Pause between bursts, when commands get through again. */
  readonly gapMs: number;
}

/**
 * Long-running scripts on some nodes: during each burst every other command sent to them is
 * refused with a BUSY error straight away. This is the fault that makes Redis errors reach an
 * implementation (ioredis resends through dropped connections and toxics, but passes BUSY
 * through), so code that mishandles a failed call — fails open, retries and misreads its own
 * retry — gets exercised. The threshold is lowered once for the whole fault and put back after.
 */
export async function busyBursts(cluster: Cluster, nodes: readonly number[], plan: BusyPlan): Promise<void> {
  // The control plane gives up on a command after 2 s; a script must end well before that.
  if (!(plan.burstMs > 0 && plan.burstMs <= MAX_BUSY_MS))
    throw new RangeError(`busyBursts: burstMs must be in (0, ${MAX_BUSY_MS}], got ${plan.burstMs}`);
  const previous = new Map<number, string>();
  // Named by its old name, lua-time-limit: Redis 6.2 knows no other, and 7.0 to 8.2 and Valkey 8 take it as an alias of busy-reply-threshold.
  try {
    for (const node of nodes) {
      const before = (await cluster.command(node, 'CONFIG', 'GET', 'lua-time-limit')) as string[];
      previous.set(node, before[1] ?? '5000');
      await cluster.command(node, 'CONFIG', 'SET', 'lua-time-limit', THRESHOLD_MS);
    }
    const end = performance.now() + plan.ms;
    for (let left = plan.ms; left > 0; left = end - performance.now()) {
      await Promise.all(nodes.map((node) => cluster.command(node, 'EVAL', SPIN, 0, Math.min(plan.burstMs, left))));
      await sleep(Math.min(plan.gapMs, Math.max(0, end - performance.now())));
    }
  } finally {
    // Every node gets its threshold back even if one of them does not answer.
    const restored = await Promise.allSettled(
      [...previous].map(([node, value]) => cluster.command(node, 'CONFIG', 'SET', 'lua-time-limit', value)),
    );
    const failed = restored.find((r) => r.status === 'rejected');
    // biome-ignore lint/correctness/noUnsafeFinally: a node left with a lowered threshold spoils every later run, so its failure is the one reported
    if (failed) throw failed.reason;
  }
}

/** One burst of `ms` on one node. */
export const busyScript = (cluster: Cluster, node: number, ms: number) =>
  busyBursts(cluster, [node], { ms, burstMs: ms, gapMs: 0 });
