// A stale completion stored over the request that took the key over, with @node-idempotency/core
// 1.0.11 and its Redis storage adapter 1.0.2 alone on one Redis. Request 1 is let through with a
// 1000 ms in-progress marker and takes 1100 ms; request 2 (same idempotency key, the retry) is let
// through once the marker has expired; request 1's onResponse then stores its response anyway, and
// request 3 is replayed request 1's response while request 2 is still running (and request 2's own
// onResponse later overwrites it). The stored response keeps the same 1000 ms TTL, so request 3 must
// come within a second of request 1's onResponse: a TTL wide enough for a loaded machine's stalls.
// Exit 1 when it reproduces, 0 when it does not.
// Run: node examples/third-party/node-idempotency/findings/reproduce.mjs
import { Idempotency } from '@node-idempotency/core';
import { RedisStorageAdapter } from '@node-idempotency/storage-adapter-redis';
import { sleep, standalone } from '../../support/redis-servers.mjs';

const server = await standalone();
const storage = new RedisStorageAdapter({ url: `redis://127.0.0.1:${server.port}` });
await storage.connect();
const idempotency = new Idempotency(storage);
const request = () => ({
  headers: { 'idempotency-key': 'order-42' },
  method: 'POST',
  path: '/orders',
  body: { item: 'book' },
  options: { cacheTTLMS: 1000 },
});
const outcome = async () => {
  try {
    const replay = await idempotency.onRequest(request());
    return replay === undefined ? 'let through' : `replayed ${JSON.stringify(replay.body)}`;
  } catch (error) {
    return `refused (${error.code ?? error.message})`;
  }
};
try {
  const first = await outcome();
  await sleep(1100); // request 1's handler outlives its 1000 ms marker
  const second = await outcome();
  await idempotency.onResponse(request(), { body: 'response of request 1', additional: { status: 201 } });
  const third = await outcome();
  console.log(
    `request 1: ${first}; 1100 ms later request 2: ${second}; after request 1's onResponse, request 3: ${third}`,
  );
  const reproduced =
    first === 'let through' && second === 'let through' && third === 'replayed "response of request 1"';
  console.log(
    reproduced
      ? 'REPRODUCED: request 1 stored its response after request 2 took the key over (its onResponse checks no owner)'
      : 'not reproduced',
  );
  process.exitCode = reproduced ? 1 : 0;
} finally {
  await storage.disconnect();
  server.stop();
}
