import type { JobOptions } from './types.ts';
import { describeDurability } from '../plan/durability.ts';
import { describeSettings } from '../plan/settings.ts';

/**
 * What decides which schedules a shard draws, besides the seed and n: the runs asked, the faults,
 * the clients and keys, the node timeout, the pattern's settings (what the sessions draw), and what
 * the implementation is asked to do after each write (`--durability`, which changes both its
 * behaviour and the invariants judged). Shards merged must share it, or together they did not run
 * what one job would have. Written into the shard's certificate as one readable line.
 */
export function shardPlan(options: JobOptions): string {
  const faults = [...options.faults].sort().join(',') || 'none';
  const settings =
    options.settings && Object.keys(options.settings).length ? `; settings ${describeSettings(options.settings)}` : '';
  return `runs ${options.runs}; faults ${faults}; clients ${options.clients ?? 'drawn'}; keys ${options.keys ?? 'drawn'}; node-timeout ${options.nodeTimeoutMs}${settings}${options.durability ? `; durability ${describeDurability(options.durability)}` : ''}`;
}
