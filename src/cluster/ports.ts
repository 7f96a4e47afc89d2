import net from 'node:net';

/**
 * Free loopback ports, held open until all are chosen so one call never returns a duplicate.
 * There is a window between closing and the child binding; start() retries the whole cluster on
 * EADDRINUSE rather than pretending the window does not exist.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    while (ports.length < count) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
      servers.push(server);
      const port = (server.address() as net.AddressInfo).port;
      // The cluster bus of a node listening on p defaults to p + 10000; keep clear of the top.
      if (port < 55_000) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/** True when nothing accepts connections on host:port. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A child (Toxiproxy, redis-server) found its port taken between our choosing it and its bind. */
const PORT_CLASH = /address already in use|EADDRINUSE|Failed listening on port/i;
const PORT_CLASH_ATTEMPTS = 4;

/**
 * A backend's start on free ports, tried again from the start (new ports) when a child met a port
 * taken meanwhile: the window freePorts() leaves. Any other failure is the start's.
 */
export async function startOnFreePorts<T>(startOnce: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      if (attempt >= PORT_CLASH_ATTEMPTS || !PORT_CLASH.test((error as Error).message)) throw error;
    }
  }
}
