import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Cluster as IORedisCluster } from 'ioredis';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { parseInfo } from '../../src/resp/info.ts';

// Seed 004's fixed-window limiter, both variants, against the real cluster.
const VARIANTS = ['fixed_window', 'fixed_window_incr_first'] as const;
const source = (variant: string) =>
  readFileSync(new URL(`../../lua/ratelimit/${variant}.lua`, import.meta.url), 'utf8');

let cluster: LocalCluster;
let client: IORedisCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
  client = cluster.connect();
});
afterAll(async () => {
  client?.disconnect();
});

const freshKey = (variant: string) => `chaoslua:rl:{${variant}:${randomBytes(6).toString('hex')}}:user123`;

/** The node index of the master serving `key`'s slot (commandstats are per node). */
async function masterOf(key: string): Promise<number> {
  const slot = Number(await cluster.command(0, 'CLUSTER', 'KEYSLOT', key));
  const master = (await cluster.topology()).nodes.find(
    (n) => n.role === 'master' && n.slots.some(([from, to]) => from <= slot && slot <= to),
  );
  if (!master) throw new Error(`no master serves slot ${slot}`);
  return master.node.index;
}

/** Calls of each command on `node` since its last CONFIG RESETSTAT (0 when never called). */
async function commandCalls(node: number): Promise<(command: string) => number> {
  const stats = parseInfo(String(await cluster.command(node, 'INFO', 'commandstats')));
  return (command) => Number(/calls=(\d+)/.exec(stats[`cmdstat_${command}`] ?? '')?.[1] ?? 0);
}

describe.each(VARIANTS)('lua/ratelimit/%s.lua', (variant) => {
  it('answers 1 1 1 1 1 0 to six hits against a limit of 5, and the key carries the window as TTL', async () => {
    const key = freshKey(variant);
    const answers: unknown[] = [];
    for (let i = 0; i < 6; i += 1) answers.push(await client.eval(source(variant), 1, key, 5, 60));
    expect(answers).toEqual([1, 1, 1, 1, 1, 0]);
    const ttl = await client.pttl(key);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('does not move the window on later hits: the TTL set by the first hit keeps running down', async () => {
    const key = freshKey(variant);
    await client.eval(source(variant), 1, key, 3, 60);
    await client.pexpire(key, 30_000); // stand-in for time passing: later hits must leave this alone
    await client.eval(source(variant), 1, key, 3, 60);
    await client.eval(source(variant), 1, key, 3, 60);
    expect(await client.pttl(key)).toBeLessThanOrEqual(30_000);
  });
});

describe('the INCR-first variant', () => {
  it('executes one command fewer inside each allowed call (no GET), and the same one command when blocked', async () => {
    const calls: Record<string, (command: string) => number> = {};
    for (const variant of VARIANTS) {
      const key = freshKey(variant);
      const node = await masterOf(key);
      const sha = String(await cluster.command(node, 'SCRIPT', 'LOAD', source(variant)));
      await cluster.command(node, 'CONFIG', 'RESETSTAT');
      for (let i = 0; i < 6; i += 1) await cluster.command(node, 'EVALSHA', sha, 1, key, 5, 60);
      calls[variant] = await commandCalls(node);
    }
    const getFirst = calls.fixed_window;
    const incrFirst = calls.fixed_window_incr_first;
    // Six calls, five allowed: GET every time, INCR while allowed, EXPIRE on the first hit only.
    expect(['evalsha', 'get', 'incr', 'expire'].map(getFirst)).toEqual([6, 6, 5, 1]);
    // INCR every time (blocked hits count too), EXPIRE on the first hit only, never a GET.
    expect(['evalsha', 'get', 'incr', 'expire'].map(incrFirst)).toEqual([6, 0, 6, 1]);
    const inside = (c: (command: string) => number) => c('get') + c('incr') + c('expire');
    expect(inside(getFirst) - inside(incrFirst)).toBe(5);
  });
});
