import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster } from '../../src/cluster/local.ts';
import { waitUntil } from '../../src/cluster/wait.ts';
import { nodeFor } from '../../src/faults/target.ts';
import type { ArmedRule } from '../../src/resp/index.ts';
import { keySlot } from '../../src/resp/key-slot.ts';

// The RESP point on every client link (client -> RESP point -> Toxiproxy -> redis-server), against
// a real cluster: what a command-aware fault holds, lets through, and cuts.

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start();
});
afterAll(async () => {
  await cluster?.dispose();
});

/** A hold no run of this suite reaches: each test ends it with reset(), so nothing depends on timing. */
const LONG_HOLD_MS = 30_000;

const caughtOne = (rule: ArmedRule) => waitUntil('the rule caught a command', async () => rule.caught.length === 1 || 'nothing caught yet', 10_000);

/** A promise's state without waiting for it. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false, value: undefined as T | undefined, error: undefined as Error | undefined, at: 0 };
  promise.then(
    (v) => Object.assign(state, { settled: true, value: v, at: performance.now() }),
    (e: Error) => Object.assign(state, { settled: true, error: e, at: performance.now() }),
  );
  return state;
}

describe('the RESP point', () => {
  it('is where clients dial: seeds and natMap point at it, not at the Toxiproxy client proxies', () => {
    const points = cluster.commands;
    cluster.nodes.forEach((n, i) => expect(n.client).toBe(`127.0.0.1:${points.address(i).port}`));
    expect(cluster.seeds().map((s) => s.port)).toEqual(cluster.nodes.map((_, i) => points.address(i).port));
    expect(Object.values(cluster.natMap()).map((a) => a.port)).toEqual(cluster.nodes.map((_, i) => points.address(i).port));
  });

  it('command-delay holds exactly one command\'s reply (and what is behind it on that connection); other connections flow', async () => {
    const a = cluster.connect();
    const b = cluster.connect();
    const key = '{resp-delay}:k';
    try {
      await a.set(key, 'v1');
      await b.get(key); // both clients connected to the key's master
      const rule = cluster.commands.arm({ action: 'delay-reply', names: ['GET'], slot: keySlot(key), holdMs: LONG_HOLD_MS, limit: 1 });
      const held = track(a.get(key));
      await caughtOne(rule);
      // Behind the held reply on a's connection: a command that Redis answers at once still waits. It
      // must name the key: a keyless command (ECHO) goes to any node, often over another connection.
      const behind = track(a.strlen(key));
      // Another connection is not held, even for the same command on the same key.
      expect(await b.get(key)).toBe('v1');
      expect(await b.set(key, 'v2')).toBe('OK');
      expect(held.settled).toBe(false);
      expect(behind.settled).toBe(false);
      expect(rule.caught).toMatchObject([{ name: 'GET', key }]);

      const releasedAt = performance.now();
      cluster.commands.reset();
      await waitUntil('held replies delivered', async () => (held.settled && behind.settled) || 'still held', 10_000);
      // The held GET ran when it arrived, before b's SET: its reply is the old value.
      expect(held.value).toBe('v1');
      expect(behind.value).toBe(2);
      expect(held.at).toBeGreaterThanOrEqual(releasedAt);
      expect(behind.at).toBeGreaterThanOrEqual(held.at); // never reordered
      await rule.settled();
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it('command-delay on the request side: Redis has not seen the command until the hold ends', async () => {
    const a = cluster.connect();
    const b = cluster.connect();
    const key = '{resp-forward}:n';
    try {
      await a.set(key, '0');
      await b.get(key);
      const rule = cluster.commands.arm({ action: 'delay-request', names: ['INCR'], slot: keySlot(key), holdMs: LONG_HOLD_MS, limit: 1 });
      const held = track(a.incr(key));
      await caughtOne(rule);
      expect(await b.get(key)).toBe('0');
      expect(held.settled).toBe(false);
      cluster.commands.reset();
      await waitUntil('held command forwarded', async () => held.settled || 'still held', 10_000);
      expect(held.value).toBe(1);
      expect(await b.get(key)).toBe('1');
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it('reply-loss lets the command run and cuts the connection before its reply: the effect is there, the client sees an error', async () => {
    const key = '{resp-loss}:n';
    const slot = keySlot(key);
    const master = nodeFor(await cluster.topology(), slot, 'master')!;
    const [host, port] = cluster.nodes[master].client.split(':');
    // A client that does not resend what was unanswered, so it sees exactly what the link did.
    const client = new Redis({ host, port: Number(port), autoResendUnfulfilledCommands: false, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.set(key, '0');
      const rule = cluster.commands.arm({ action: 'lose-reply', names: ['INCR'], slot, limit: 1 });
      await expect(client.incr(key)).rejects.toThrow(/Connection is closed/);
      await rule.settled();
      expect(rule.caught).toMatchObject([{ name: 'INCR', key }]);
      expect(await cluster.command(master, 'GET', key)).toBe('1');
    } finally {
      client.disconnect();
    }
  });

  it('reply-loss through the harness\'s ioredis Cluster: the command is resent, so it may run twice (why the fault counts as a cut connection)', async () => {
    const redis = cluster.connect();
    const key = '{resp-resend}:n';
    try {
      await redis.set(key, '0');
      const rule = cluster.commands.arm({ action: 'lose-reply', names: ['INCR'], slot: keySlot(key), limit: 1 });
      const answer = await redis.incr(key);
      await rule.settled();
      expect(rule.caught).toHaveLength(1);
      // The first INCR ran and its reply was lost; ioredis sent it again on a new connection.
      expect(answer).toBe(2);
      expect(await redis.get(key)).toBe('2');
    } finally {
      redis.disconnect();
    }
  });

  it('observes the data commands that went by, scripts under one name, and never connection or cluster control', async () => {
    const redis = cluster.connect();
    try {
      await redis.eval("return redis.call('GET', KEYS[1])", 1, '{resp-names}:k');
      await redis.del('{resp-names}:k');
      const names = cluster.commands.observedNames();
      expect(names).toEqual(expect.arrayContaining(['DEL', 'EVALSHA', 'GET', 'INCR', 'SET']));
      for (const control of ['CLUSTER', 'PING', 'INFO', 'EVAL', 'ECHO']) expect(names).not.toContain(control);
    } finally {
      redis.disconnect();
    }
  });
});
