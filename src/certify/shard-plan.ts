import type { JobOptions } from './types.ts';
import { describeDurability } from '../plan/durability.ts';

/**
 * What decides which schedules a shard draws, besides the seed and n: the runs asked, the faults,
 * the clients and keys, the node timeout, and what the implementation is asked to do after each write
 * (`--durability`, which changes both its behaviour and the invariants judged). Shards merged must share it, or together they did not run
 * what one job would have. Written into the shard's certificate as one readable line.
 */
export function shardPlan(options: JobOptions): string {
  const faults = [...options.faults].sort().join(',') || 'none';
  return `runs ${options.runs}; faults ${faults}; clients ${options.clients ?? 'drawn'}; keys ${options.keys ?? 'drawn'}; node-timeout ${options.nodeTimeoutMs}${options.durability ? `; durability ${describeDurability(options.durability)}` : ''}`;
}
