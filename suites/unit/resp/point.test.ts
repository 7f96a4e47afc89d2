import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RespPoints } from '../../../src/resp/point.ts';
import { RespSplitter } from '../../../src/resp/splitter.ts';
import { keySlot } from '../../../src/resp/key-slot.ts';
import { ANY_DATA_COMMAND } from '../../../src/resp/rules.ts';

// The RESP point in front of a stand-in server that answers every command with its sequence number
// on the connection (`:1`, `:2`, ...): what a rule holds, passes and cuts on a pipelined connection.
// (suites/cluster/resp-point.test.ts does the same against a real cluster.)

const HOLD_MS = 60_000; // never reached: each test ends its holds with reset()
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setUp() {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    const splitter = new RespSplitter('request');
    let n = 0;
    socket.on('data', (chunk: Buffer) => {
      for (const b of splitter.push(chunk)) {
        seen.push(b.args.map((a) => a?.toString()).join(' '));
        socket.write(`:${++n}\r\n`);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  const points = await RespPoints.start([
    { node: 'n0', listen: 0, address: { host: '127.0.0.1', port: (server.address() as net.AddressInfo).port } },
  ]);
  cleanup.push(() => points.close());
  const open = async () => {
    const client = net.connect(points.address(0).port, '127.0.0.1');
    cleanup.push(() => client.destroy());
    const received: string[] = [];
    const state = { ended: false };
    client.on('data', (d: Buffer) =>
      received.push(
        ...d
          .toString()
          .split('\r\n')
          .filter((s) => s !== ''),
      ),
    );
    client.on('end', () => (state.ended = true));
    client.on('error', () => undefined);
    await new Promise((resolve) => client.once('connect', resolve));
    const send = (...commands: string[][]) =>
      client.write(
        commands
          .map((args) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`)
          .join(''),
      );
    return { received, send, isEnded: () => state.ended };
  };
  const first = await open();
  const { received, send, isEnded } = first;
  const until = async (what: string, ok: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { points, seen, received, send, until, isEnded, open };
}

describe('a RESP point on a pipelined connection', () => {
  it('holds one reply and every reply behind it, in order, and nothing before it', async () => {
    const { points, seen, received, send, until } = await setUp();
    const rule = points.arm({ action: 'delay-reply', names: ['GET'], holdMs: HOLD_MS, limit: 1 });
    send(['SET', 'a', '1'], ['GET', 'a'], ['DEL', 'a'], ['GET', 'a']);
    await until('the first reply', () => received.length >= 1);
    expect(rule.caught.map((c) => c.name)).toEqual(['GET']);
    // The server answered all four; only the SET's reply got through.
    await until('the server to answer all four', () => seen.length === 4);
    expect(received).toEqual([':1']);
    points.reset();
    await until('every reply', () => received.length === 4);
    expect(received).toEqual([':1', ':2', ':3', ':4']);
  });

  it('holds the forwarding of one command: the server sees nothing from it on until the hold ends', async () => {
    const { points, seen, received, send, until } = await setUp();
    points.arm({ action: 'delay-request', names: ['DEL'], holdMs: HOLD_MS, limit: 1 });
    send(['GET', 'a'], ['DEL', 'a'], ['GET', 'a']);
    // The three went out in one write: unheld, the DEL would have reached the server with the GET.
    await until('the GET answered', () => received.length === 1);
    expect(seen).toEqual(['GET a']);
    points.reset();
    await until('every reply', () => received.length === 3);
    expect(seen).toEqual(['GET a', 'DEL a', 'GET a']);
  });

  it('loses one reply: earlier replies arrive, then the connection ends; the command did reach the server', async () => {
    const { points, seen, received, send, until, isEnded } = await setUp();
    const rule = points.arm({ action: 'lose-reply', names: ['INCR'], limit: 1 });
    send(['GET', 'n'], ['INCR', 'n'], ['GET', 'n']);
    await until('the connection to end', isEnded);
    await rule.settled();
    expect(received).toEqual([':1']);
    expect(seen.slice(0, 2)).toEqual(['GET n', 'INCR n']);
  });

  it('refuses one command: it never reaches the server, its client is answered BUSY in its turn, the rest flow', async () => {
    const { points, seen, received, send, until } = await setUp();
    const rule = points.arm({ action: 'refuse', names: ['SET'], limit: 1 });
    send(['GET', 'a'], ['SET', 'a', '1'], ['GET', 'a'], ['SET', 'a', '2']);
    await until('four answers', () => received.length === 4);
    await rule.settled();
    // The server saw three commands and numbered its replies 1-3; the refused SET was answered in its place.
    expect(seen).toEqual(['GET a', 'GET a', 'SET a 2']);
    expect(received).toEqual([
      ':1',
      '-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.',
      ':2',
      ':3',
    ]);
  });

  it('answers a refused command after a held reply before it, never ahead of it', async () => {
    const { points, received, send, until } = await setUp();
    points.arm({ action: 'delay-reply', names: ['GET'], holdMs: HOLD_MS, limit: 1 });
    points.arm({ action: 'refuse', names: ['SET'], limit: 1 });
    send(['GET', 'a'], ['SET', 'a', '1']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);
    points.reset();
    await until('both answers', () => received.length === 2);
    expect(received[0]).toBe(':1');
    expect(received[1]).toMatch(/^-BUSY /);
  });

  it('ends a TTL-aimed hold once the key has run out and another connection has touched it', async () => {
    const { points, seen, received, send, until, open } = await setUp();
    const ttls: Record<string, number> = { expired: 0, forever: -1 };
    const ttlOf = async (_node: string, key: Buffer) => ttls[key.toString()];
    const rule = points.arm({
      action: 'delay-reply',
      names: ['GET'],
      holdMs: HOLD_MS,
      pastExpiryMs: 0,
      ttlOf,
      limit: 2,
    });
    send(['GET', 'expired']);
    await until('the GET caught and answered by the server', () => rule.caught.length === 1 && seen.length === 1);
    expect(received).toEqual([]);
    // Another client touches the key: the hold ends (no reset), its reply arrives.
    const other = await open();
    other.send(['SET', 'expired', 'x']);
    await until('the held reply', () => received.length === 1);
    // A key without a TTL is held for holdMs: only reset() ends it here.
    send(['GET', 'forever'], ['PING']);
    await until('the server to answer both', () => seen.length === 4);
    expect(received).toEqual([':1']);
    points.reset();
    await until('every reply', () => received.length === 3);
  });

  it('catches only the named command, on the given slot, up to its limit', async () => {
    const { points, received, send, until } = await setUp();
    // {a} and {b} hash to different slots; only a GET of {b}... is caught, and only once.
    const rule = points.arm({
      action: 'delay-reply',
      names: ['GET'],
      slot: keySlot('{b}x'),
      holdMs: HOLD_MS,
      limit: 1,
    });
    send(['GET', '{a}x'], ['GET', '{b}x'], ['GET', '{b}y']);
    await until('the first reply', () => received.length >= 1);
    expect(rule.caught.map((c) => c.key)).toEqual(['{b}x']);
    points.reset();
    await until('every reply', () => received.length === 3);
  });

  it("never catches a command on the excepted slot (a staged race's key is left to its own hold)", async () => {
    const { points, received, send, until } = await setUp();
    // {a} is excepted: the GET of {a}x goes by, the GET of {b}x behind it is the one caught.
    const rule = points.arm({
      action: 'delay-reply',
      names: ['GET'],
      exceptSlot: keySlot('{a}x'),
      holdMs: HOLD_MS,
      limit: 1,
    });
    send(['GET', '{a}x'], ['GET', '{b}x']);
    await until('the first reply', () => received.length >= 1);
    expect(rule.caught.map((c) => c.key)).toEqual(['{b}x']);
    points.reset();
    await until('every reply', () => received.length === 2);
  });

  it('catches the first data command of any name under "*", holding the side its name calls for', async () => {
    const { points, seen, received, send, until } = await setUp();
    // PING is connection control, never caught; the SET is, and a write is held before Redis sees it.
    const rule = points.arm({
      action: 'delay-reply',
      names: [ANY_DATA_COMMAND],
      sideFor: (name) => (name === 'GET' ? 'delay-reply' : 'delay-request'),
      holdMs: HOLD_MS,
      limit: 1,
    });
    send(['PING'], ['SET', '{b}x', '1'], ['GET', '{b}y']);
    await until('the PING reply', () => received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rule.caught.map((c) => c.name)).toEqual(['SET']);
    expect(seen).toEqual(['PING']);
    expect(received).toEqual([':1']);
    points.reset();
    await until('every reply', () => received.length === 3);
    expect(seen).toEqual(['PING', 'SET {b}x 1', 'GET {b}y']);
  });
});

describe('a lost reply and its resend', () => {
  it('does not cut the resend of a command whose reply it lost, so an operation runs at most twice', async () => {
    const { points, seen, received, send, until, isEnded, open } = await setUp();
    const rule = points.arm({ action: 'lose-reply', names: ['INCR'], limit: 2 });
    send(['INCR', 'n']);
    await until('the first connection cut', isEnded);
    // The client reconnects and resends: answered, not cut, though the rule could catch one more.
    const again = await open();
    again.send(['INCR', 'n']);
    await until('the resend answered', () => again.received.length === 1);
    expect(rule.caught).toHaveLength(1);
    expect(seen.filter((c) => c === 'INCR n')).toHaveLength(2);
    // Another key is still caught.
    again.send(['INCR', 'm']);
    await until('the other key cut', again.isEnded);
    expect(rule.caught.map((c) => c.key)).toEqual(['n', 'm']);
    expect(received).toEqual([]);
  });
});
