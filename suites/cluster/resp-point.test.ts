import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster } from '../../src/cluster/local.ts';
import { waitUntil } from '../../src/cluster/wait.ts';
import { nodeFor } from '../../src/faults/target.ts';
import type { ArmedRule } from '../../src/resp/index.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { applyAimedDelay } from '../../src/faults/aimed-apply.ts';
import { sleep, startClock } from '../../src/history/clock.ts';
import { Recorder } from '../../src/history/recorder.ts';
import { OperationBoard } from '../../src/runner/operation-board.ts';

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

const caughtOne = (rule: ArmedRule) =>
  waitUntil('the rule caught a command', async () => rule.caught.length === 1 || 'nothing caught yet', 10_000);

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
    expect(Object.values(cluster.natMap()).map((a) => a.port)).toEqual(
      cluster.nodes.map((_, i) => points.address(i).port),
    );
  });

  it("command-delay holds exactly one command's reply (and what is behind it on that connection); other connections flow", async () => {
    const a = cluster.connect();
    const b = cluster.connect();
    const key = '{resp-delay}:k';
    try {
      await a.set(key, 'v1');
      await b.get(key); // both clients connected to the key's master
      const rule = cluster.commands.arm({
        action: 'delay-reply',
        names: ['GET'],
        slot: keySlot(key),
        holdMs: LONG_HOLD_MS,
        limit: 1,
      });
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

  it("aimed-delay waits for its operation, then holds its first command until the key's TTL has run out and another client was answered", async () => {
    const a = cluster.connect();
    const b = cluster.connect();
    const key = '{resp-aimed}:lock';
    const board = new OperationBoard(2);
    const recorder = new Recorder(startClock());
    try {
      await a.set(key, 'c0', 'PX', 400);
      await b.get(key);
      const applying = applyAimedDelay(
        { kind: 'aimed-delay', atMs: 0, client: 0, op: 1, on: 'request', holdMs: 5_000, pastExpiryMs: 0 },
        { cluster, recorder, slotOf: () => keySlot(key), nodeTimeoutMs: 1_000, operations: board },
      );
      // Operation #0 of client 0, and client 1's commands, go by: the delay waits for #1.
      const first = board.invoking(0, 0, 0, recorder.clock.now());
      expect(await a.get(key)).toBe('c0');
      first();
      expect(await b.get(key)).toBe('c0');
      const aimed = board.invoking(0, 1, 0, recorder.clock.now());
      // Its first command is a plain read: held on its reply (whatever side was drawn), after it ran.
      const read = track(a.get(key));
      await sleep(100);
      expect(read.settled).toBe(false);
      // Until the TTL has run out, another client's command on the key does not end the hold.
      expect(await b.get(key)).toBe('c0');
      // Past the TTL, with nobody at the key, it still holds.
      await sleep(500);
      expect(read.settled).toBe(false);
      // The TTL is out: the next command another client has answered on the key ends it. The read
      // ran before, so it says the first holder still holds: the stale answer a GET-then-DEL acts on.
      expect(await b.set(key, 'c1', 'PX', 5_000, 'NX')).toBe('OK');
      await waitUntil('the held reply delivered', async () => read.settled || 'still held', 5_000);
      expect(read.value).toBe('c0');
      aimed();
      const applied = await applying;
      expect(applied?.detail).toMatch(/GET: its reply held\); caught /);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it('aimed-delay whose operation never comes applies nothing (its client finished first)', async () => {
    const board = new OperationBoard(1);
    const recorder = new Recorder(startClock());
    const applying = applyAimedDelay(
      { kind: 'aimed-delay', atMs: 0, client: 0, op: 3, on: 'reply', holdMs: 1_000, pastExpiryMs: 0 },
      { cluster, recorder, slotOf: () => 0, nodeTimeoutMs: 1_000, operations: board },
    );
    board.finishedClient(0);
    expect(await applying).toBeUndefined();
  });

  it('command-delay on the request side: Redis has not seen the command until the hold ends', async () => {
    const a = cluster.connect();
    const b = cluster.connect();
    const key = '{resp-forward}:n';
    try {
      await a.set(key, '0');
      await b.get(key);
      const rule = cluster.commands.arm({
        action: 'delay-request',
        names: ['INCR'],
        slot: keySlot(key),
        holdMs: LONG_HOLD_MS,
        limit: 1,
      });
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
    const client = new Redis({
      host,
      port: Number(port),
      autoResendUnfulfilledCommands: false,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
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

  it("reply-loss through the harness's ioredis Cluster: the command is resent, so it may run twice (why the fault counts as a cut connection)", async () => {
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
