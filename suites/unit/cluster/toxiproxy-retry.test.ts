import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Toxiproxy } from '../../../src/cluster/toxiproxy.ts';

// The retries of the Toxiproxy API client, against an HTTP server that answers as a loaded Toxiproxy
// did (503 ... Timeout): the real server cannot be made to answer 503 on demand. The real-cluster
// side (the server killed mid-job) is suites/certify/environment-failure.full.test.ts.

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering each request with the next status of `statuses` (the last one repeats). */
async function answering(statuses: number[]): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = [];
  server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const status = statuses[Math.min(requests.length - 1, statuses.length - 1)];
    res.writeHead(status).end(status < 300 ? '' : 'Timeout');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as AddressInfo).port, requests };
}

describe('the Toxiproxy API client', () => {
  it('retries a 503 and succeeds when the server recovers', async () => {
    const { port, requests } = await answering([503, 503, 204]);
    await Toxiproxy.attach(port).reset();
    expect(requests).toEqual(['POST /reset', 'POST /reset', 'POST /reset']);
  });

  it('gives up after four tries with the last answer in the message', async () => {
    const { port, requests } = await answering([503]);
    await expect(Toxiproxy.attach(port).reset()).rejects.toThrow('toxiproxy POST /reset: 503 Timeout');
    expect(requests).toHaveLength(4);
  });

  it('does not retry a 404: the request itself is wrong', async () => {
    const { port, requests } = await answering([404]);
    await expect(Toxiproxy.attach(port).setEnabled('nope', true)).rejects.toThrow('toxiproxy POST /proxies/nope: 404');
    expect(requests).toHaveLength(1);
  });

  it('takes a 409 on a retried toxic as the earlier try having taken effect', async () => {
    const { port, requests } = await answering([503, 409]);
    await Toxiproxy.attach(port).addToxic('n0-client', { type: 'latency', attributes: { latency: 10 } });
    expect(requests).toEqual(['POST /proxies/n0-client/toxics', 'POST /proxies/n0-client/toxics']);
  });

  it('names the errno when no server listens', async () => {
    const { port } = await answering([204]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    await expect(Toxiproxy.attach(port).reset()).rejects.toThrow(
      /toxiproxy POST \/reset: fetch failed \(ECONNREFUSED\)/,
    );
  });
});
