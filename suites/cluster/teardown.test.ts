import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, it } from 'vitest';
import { isAlive, leftovers } from '../support/processes.ts';

const fixture = path.join(import.meta.dirname, 'fixtures/hold-cluster.ts');

interface Started {
  pids: number[];
  ports: number[];
  dir: string;
}

/** Start the fixture harness, wait for its report, end it the given way, and say what is left. */
async function endHarness(mode: 'dispose' | 'exit' | 'throw' | 'wait', signal?: NodeJS.Signals) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const started = await new Promise<Started>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Started);
    });
    child.once('exit', (code) => reject(new Error(`harness exited ${code} before reporting: ${out}${err}`)));
  });
  // Thrown, not expect()ed: the cases run concurrently, where only the test's own expect is safe.
  if (!started.pids.every(isAlive)) throw new Error(`a started process was already gone: ${JSON.stringify(started)}`);
  const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
  if (signal) child.kill(signal);
  await exited;
  return { started, left: await leftovers(started.pids, started.ports, started.dir) };
}

describe('nothing the harness starts outlives it', () => {
  const cases: [string, 'dispose' | 'exit' | 'throw' | 'wait', NodeJS.Signals?][] = [
    ['dispose()', 'dispose'],
    ['normal exit without dispose', 'exit'],
    ['an uncaught exception', 'throw'],
    ['Ctrl-C (SIGINT)', 'wait', 'SIGINT'],
    ['SIGTERM', 'wait', 'SIGTERM'],
    ['kill -9 of the harness', 'wait', 'SIGKILL'],
  ];
  // Side by side: each harness starts its own cluster on its own free ports and temp dir, so the six
  // cannot see each other (and ending one while the others start is a harder test, not an easier one).
  for (const [name, mode, signal] of cases) {
    it.concurrent(`after ${name}: no redis-server, no toxiproxy, ports free, temp dir gone`, async ({ expect }) => {
      const { started, left } = await endHarness(mode, signal);
      expect(started.pids).toHaveLength(7);
      expect(left).toEqual({ pids: [], ports: [], dirExists: false });
    });
  }
});
