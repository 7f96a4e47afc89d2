// at-most-limit, with redis-semaphore 5.8.0 alone on one Redis: three Semaphore callers of one key,
// a semaphore of two places, all told they hold one. A holds with lockTimeout 500; 300 ms later B
// (lockTimeout 250) acquires, and its call prunes every member older than *its* 250 ms: A's; then C
// (500) takes A's place. Exit 1 when it reproduces (three holders), 0 when it does not.
// Run: node examples/third-party/redis-semaphore-semaphore/findings/reproduce.mjs
import Redis from 'ioredis';
import semaphore from 'redis-semaphore';
import { sleep, standalone } from '../../support/redis-servers.mjs';

const { Semaphore } = semaphore;
const server = await standalone();
const redis = new Redis({ port: server.port, lazyConnect: false });
const caller = (identifier, lockTimeout) => new Semaphore(redis, 'pool', 2, { identifier, lockTimeout, refreshInterval: 0, acquireAttemptsLimit: 1 });
try {
  const a = await caller('A', 500).tryAcquire();
  await sleep(300);
  const b = await caller('B', 250).tryAcquire();
  const c = await caller('C', 500).tryAcquire();
  const stored = await redis.zrange('semaphore:pool', 0, -1);
  console.log(`A (lockTimeout 500) acquired: ${a}; 300 ms later B (250): ${b}; then C (500): ${c}`);
  console.log(`members stored: ${stored.join(', ')} (A, still within its 500 ms, believes it holds a place too)`);
  const reproduced = a && b && c;
  console.log(reproduced ? 'REPRODUCED: three callers hold a place of a semaphore of two (at-most-limit)' : 'not reproduced');
  process.exitCode = reproduced ? 1 : 0;
} finally {
  redis.disconnect();
  server.stop();
}
