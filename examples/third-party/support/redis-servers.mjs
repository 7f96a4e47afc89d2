// Throwaway redis-servers for a finding's reproduction: a standalone node, or a cluster of a few
// masters without replicas, on free loopback ports, in a temp folder, stopped (and the folder
// removed) by stop(), on exit, Ctrl-C or SIGTERM. Plain Node and the redis-server/redis-cli on the
// PATH: a reproduction uses the library alone, nothing of chaoslua.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Redis refuses a cluster node whose port + 10000 (its bus) is over 65535, and the kernel hands out
// ports up to 60999; a busy machine reaches the top of the range, so a cluster node's port is drawn
// until it is low enough and its bus port is free too.
const bindable = (port) =>
  new Promise((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

const anyPort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function freePort(clustered) {
  for (let i = 0; i < 200; i++) {
    const port = await anyPort();
    if (!clustered) return port;
    if (port <= 55_535 && (await bindable(port + 10_000))) return port;
  }
  throw new Error('environment: no free loopback port below 55535 with a free bus port');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const cli = (port, ...args) =>
  execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

// Ready when the server on the port is our child (its process_id): another program may take the
// port between the probe and the bind, and then our child exits and a stranger answers PING.
async function waitForChild(port, child) {
  for (let i = 0; i < 200 && child.exitCode === null && child.signalCode === null; i++) {
    try {
      if (cli(port, 'INFO', 'server').includes(`process_id:${child.pid}\r`)) return true;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return false;
}

function start(clustered) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repro-redis-'));
  const children = [];
  const stop = () => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => (stop(), process.exit(130)));
  // A node on a free port; when the port was taken in the meantime (the child exits, or another
  // server answers), the child is killed and a new port drawn, a few times.
  const node = async () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const port = await freePort(clustered);
      const args = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--dbfilename',
        `${port}.rdb`,
      ];
      if (clustered)
        args.push(
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '5000',
        );
      const child = spawn('redis-server', args, { stdio: 'ignore' });
      children.push(child);
      if (await waitForChild(port, child)) return port;
      child.kill('SIGKILL');
    }
    throw new Error('environment: redis-server did not start on a free port in 5 attempts');
  };
  return { node, stop };
}

/** One redis-server: { port, stop }. */
export async function standalone() {
  const { node, stop } = start(false);
  return { port: await node(), stop };
}

/** A cluster of `masters` redis-servers, slots spread by redis-cli: { ports, stop }. */
export async function cluster(masters = 3) {
  const { node, stop } = start(true);
  const ports = [];
  for (let i = 0; i < masters; i++) ports.push(await node());
  execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    const states = ports.map((p) => cli(p, 'CLUSTER', 'INFO'));
    if (states.every((s) => s.includes('cluster_state:ok'))) return { ports, stop };
    await sleep(100);
  }
  stop();
  throw new Error('environment: the cluster did not reach cluster_state:ok in 30 s');
}

export { sleep };
