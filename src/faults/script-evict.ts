/**
 * Script cache eviction as a fault. From Redis 7.4 and Valkey 8.0 a server keeps at most 500
 * EVAL-loaded scripts and evicts the least recently used (INFO `evicted_scripts`); scripts loaded with
 * SCRIPT LOAD are exempt (on Valkey also an EVAL-loaded one SCRIPT LOADed again). So a client that
 * loads with EVAL (ioredis's defineCommand, go-redis) meets NOSCRIPT with no flush, restart or
 * failover: another tenant's scripts are enough. This is that tenant: distinct throwaway EVALs on
 * every master, then the count the server says it evicted. On a server that never evicts (7.0, 6.2)
 * it evicts nothing and says so in its record.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { parseInfo } from '../resp/info.ts';
import { describeFault, type FaultStep } from '../plan/schedule.ts';
import { SCRIPTS_EVICTED } from './classes.ts';
import { healCluster } from './heal.ts';
import { defineFault } from './types.ts';

type ScriptEvictStep = Extract<FaultStep, { kind: 'script-evict' }>;

/** More than the servers' limit of 500, so that every script loaded before is the least recently used. */
const SCRIPTS = 600;

async function evicted(command: (...args: (string | number)[]) => Promise<unknown>): Promise<number | undefined> {
  const stats = parseInfo(String(await command('INFO', 'stats')));
  return stats.evicted_scripts === undefined ? undefined : Number(stats.evicted_scripts);
}

export const scriptEvict = defineFault({
  name: 'script-evict',
  description:
    'distinct EVALs on every master push EVAL-loaded scripts out of a server that evicts them (Redis 7.4+, Valkey 8)',
  backends: 'evicting',
  external: 'destructive',
  recordedAs: 'script-evict',
  draw: {
    lane: 'cluster',
    class: SCRIPTS_EVICTED,
    step: ({ at }) =>
      fc.record({ kind: fc.constant('script-evict' as const), atMs: at, scripts: fc.constant(SCRIPTS) }),
  },
  is: (step): step is ScriptEvictStep => step.kind === 'script-evict',
  lossy: () => false,
  cutsConnections: () => false,
  async apply(step, ctx) {
    const masters = (await ctx.cluster.topology()).nodes.filter((n) => n.role === 'master').map((n) => n.node.index);
    // A nonce per step: scripts already cached would be hits, not new entries, and evict nothing.
    const nonce = randomBytes(6).toString('hex');
    let total = 0;
    let counted = true;
    await Promise.all(
      masters.map(async (node) => {
        const command = (...args: (string | number)[]) => ctx.cluster.command(node, ...args);
        const before = await evicted(command);
        for (let i = 0; i < step.scripts; i++) await command('EVAL', `return '${nonce}:${i}'`, 0);
        const after = await evicted(command);
        if (before === undefined || after === undefined) counted = false;
        else total += after - before;
      }),
    );
    const said = counted
      ? `${total} scripts evicted`
      : 'this server does not evict EVAL-loaded scripts (no evicted_scripts: before 7.4)';
    return {
      kind: 'script-evict',
      target: 'every master',
      lossy: false,
      failedNodes: 0,
      detail: `${describeFault(step)}: ${said}`,
    };
  },
  heal: healCluster,
});
