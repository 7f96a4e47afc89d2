// rate-limit-redis 6.0.1 with its README's ioredis recipe (`sendCommand: (...args) => client.call(...)`)
// on a Redis Cluster of three masters, the library alone: init() sends SCRIPT LOAD, which has no key,
// so ioredis sends it to one master; every hit on a key served by another master is answered NOSCRIPT,
// and the store never loads the script there. Exit 1 when it reproduces (a NOSCRIPT reaches the caller).
// Run: node examples/third-party/rate-limit-redis/findings/reproduce.mjs
import { Cluster } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { cluster } from '../../support/redis-servers.mjs';

const servers = await cluster(3);
const client = new Cluster(servers.ports.map((port) => ({ host: '127.0.0.1', port })));
try {
  const store = new RedisStore({ sendCommand: (command, ...args) => client.call(command, ...args) });
  await store.init({ windowMs: 60_000 });
  const failures = [];
  let hits = 0;
  for (let i = 0; i < 30; i++) {
    hits++;
    await store.increment(`client-${i}`).catch((error) => failures.push(String(error.message ?? error).split('\n')[0]));
  }
  console.log(`${hits} hits on 30 keys spread over 3 masters: ${failures.length} failed${failures.length ? `, e.g. ${failures[0]}` : ''}`);
  const reproduced = failures.some((f) => f.startsWith('NOSCRIPT'));
  console.log(reproduced ? 'REPRODUCED: the script was loaded on one master only; hits on the others fail with NOSCRIPT' : 'not reproduced');
  process.exitCode = reproduced ? 1 : 0;
} finally {
  client.disconnect();
  servers.stop();
}
