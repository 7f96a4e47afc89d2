// Throwaway redis-servers for a finding's reproduction: a standalone node, or a cluster of a few
// masters without replicas, on free loopback ports, in a temp folder, stopped (and the folder
// removed) by stop(), on exit, Ctrl-C or SIGTERM. Plain Node and the redis-server/redis-cli on the
// PATH: a reproduction uses the library alone, nothing of chaoslua.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForPing(port) {
  for (let i = 0; i < 100; i++) {
    try {
      if (execFileSync('redis-cli', ['-p', String(port), 'PING'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'PONG') return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`redis-server on port ${port} did not answer PING`);
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
  const node = async () => {
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--dbfilename', `${port}.rdb`];
    if (clustered) args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000');
    children.push(spawn('redis-server', args, { stdio: 'ignore' }));
    await waitForPing(port);
    return port;
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
  execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const states = ports.map((p) => execFileSync('redis-cli', ['-p', String(p), 'CLUSTER', 'INFO'], { encoding: 'utf8' }));
    if (states.every((s) => s.includes('cluster_state:ok'))) return { ports, stop };
    await sleep(100);
  }
  stop();
  throw new Error('the cluster did not reach cluster_state:ok');
}

export { sleep };
