import type { JobOptions } from './types.ts';

/**
 * What decides which schedules a shard draws, besides the seed and n: the runs asked, the faults,
 * the clients and keys, the node timeout. Shards merged must share it, or together they did not run
 * what one job would have. Written into the shard's certificate as one readable line.
 */
export function shardPlan(options: JobOptions): string {
  const faults = [...options.faults].sort().join(',') || 'none';
  return `runs ${options.runs}; faults ${faults}; clients ${options.clients ?? 'drawn'}; keys ${options.keys ?? 'drawn'}; node-timeout ${options.nodeTimeoutMs}`;
}
