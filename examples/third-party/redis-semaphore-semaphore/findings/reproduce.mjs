// at-most-limit, with redis-semaphore 5.8.0 alone on one Redis: three Semaphore callers of one key,
// a semaphore of two places, all told they hold one. A holds with lockTimeout 2000; 300 ms later B
// (lockTimeout 250) acquires, and its call prunes every member older than *its* 250 ms: A's; then C
// (2000) takes A's place while A's 2000 ms still run (checked on the clock, so a stalled machine
// cannot pass A's own expiry off as the finding). Exit 1 when it reproduces (three holders), 0 when
// it does not.
// Run: node examples/third-party/redis-semaphore-semaphore/findings/reproduce.mjs
import Redis from 'ioredis';
import semaphore from 'redis-semaphore';
import { sleep, standalone } from '../../support/redis-servers.mjs';

const { Semaphore } = semaphore;
const server = await standalone();
const redis = new Redis({ port: server.port, lazyConnect: false });
const caller = (identifier, lockTimeout) =>
  new Semaphore(redis, 'pool', 2, { identifier, lockTimeout, refreshInterval: 0, acquireAttemptsLimit: 1 });
try {
  const aCalled = Date.now();
  const a = await caller('A', 2000).tryAcquire();
  await sleep(300);
  const b = await caller('B', 250).tryAcquire();
  const c = await caller('C', 2000).tryAcquire();
  const aHeldFor = Date.now() - aCalled; // an upper bound on how long A has held its place
  const stored = await redis.zrange('semaphore:pool', 0, -1);
  console.log(
    `A (lockTimeout 2000) acquired: ${a}; 300 ms later B (250): ${b}; then C (2000): ${c}, at most ${aHeldFor} ms after A`,
  );
  console.log(`members stored: ${stored.join(', ')} (A, still within its 2000 ms, believes it holds a place too)`);
  const reproduced = a && b && c && aHeldFor < 2000;
  console.log(
    reproduced ? 'REPRODUCED: three callers hold a place of a semaphore of two (at-most-limit)' : 'not reproduced',
  );
  process.exitCode = reproduced ? 1 : 0;
} finally {
  redis.disconnect();
  server.stop();
}
