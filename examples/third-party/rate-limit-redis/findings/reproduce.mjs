// rate-limit-redis 6.0.1 with its README's ioredis recipe (`sendCommand: (...args) => client.call(...)`)
// on a Redis Cluster of three masters, the library alone: init() sends SCRIPT LOAD, which has no key,
// so ioredis sends it to one master; a hit on a key served by another master is answered NOSCRIPT,
// and the store's one retry reloads the script on a master ioredis picks at random again.
// Whether one round of 30 hits shows it is chance (about 1 round in 6 gets every retry lucky), so
// each round starts as a deploy does (scripts flushed on every master, a new store) and the program
// stops at the first round where a NOSCRIPT reaches the caller; 20 lucky rounds in a row would be
// about one chance in 10^15. Exit 1 when it reproduces.
// Run: node examples/third-party/rate-limit-redis/findings/reproduce.mjs
import { Cluster } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { cluster } from '../../support/redis-servers.mjs';

const ROUNDS = 20;
const servers = await cluster(3);
const client = new Cluster(servers.ports.map((port) => ({ host: '127.0.0.1', port })));
try {
  let reproduced = false;
  for (let round = 1; round <= ROUNDS && !reproduced; round++) {
    await Promise.all(client.nodes('master').map((node) => node.script('FLUSH')));
    const store = new RedisStore({ sendCommand: (command, ...args) => client.call(command, ...args) });
    await store.init({ windowMs: 60_000 });
    const failures = [];
    for (let i = 0; i < 30; i++) {
      await store
        .increment(`client-${round}-${i}`)
        .catch((error) => failures.push(String(error.message ?? error).split('\n')[0]));
    }
    console.log(
      `round ${round}: 30 hits on 30 keys spread over 3 masters: ${failures.length} failed${failures.length ? `, e.g. ${failures[0]}` : ''}`,
    );
    reproduced = failures.some((f) => f.startsWith('NOSCRIPT'));
  }
  console.log(
    reproduced
      ? 'REPRODUCED: the script was loaded on one master only; hits on the others fail with NOSCRIPT'
      : `not reproduced in ${ROUNDS} rounds`,
  );
  process.exitCode = reproduced ? 1 : 0;
} finally {
  client.disconnect();
  servers.stop();
}
