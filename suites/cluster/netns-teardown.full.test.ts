import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { netnsUnavailable } from '../../src/cluster/netns/host.ts';
import { isAlive } from '../support/processes.ts';

const fixture = path.join(import.meta.dirname, 'fixtures/hold-netns-cluster.ts');
const unavailable = netnsUnavailable();

interface Started {
  pids: number[];
  namespaces: string[];
  links: string[];
  dir: string;
}

/** What the host shows of networking: namespaces, links (names only) and the root rule set. */
function hostNetwork(): { namespaces: string; links: string; ruleset: string } {
  const sh = (file: string, args: string[]) => execFileSync(file, args, { encoding: 'utf8' });
  return {
    namespaces: sh('ip', ['netns', 'list'])
      .split('\n')
      .map((l) => l.split(' ')[0])
      .filter(Boolean)
      .sort()
      .join('\n'),
    links: sh('ip', ['-o', 'link', 'show'])
      .split('\n')
      .map((l) => l.split(':')[1]?.trim().split('@')[0])
      .filter(Boolean)
      .sort()
      .join('\n'),
    ruleset: sh('nft', ['list', 'ruleset']),
  };
}

/** Poll until the host's network is `before` again and the harness's processes and dir are gone. */
async function settled(before: ReturnType<typeof hostNetwork>, started: Started, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = { ...hostNetwork(), pids: started.pids.filter(isAlive), dirExists: fs.existsSync(started.dir) };
    const clean =
      now.namespaces === before.namespaces &&
      now.links === before.links &&
      now.ruleset === before.ruleset &&
      now.pids.length === 0 &&
      !now.dirExists;
    if (clean || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function endHarness(mode: 'dispose' | 'wait', signal?: NodeJS.Signals) {
  const before = hostNetwork();
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (chunk) => (out += chunk));
  const started = await new Promise<Started>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Started);
    });
    child.once('exit', (code) => reject(new Error(`harness exited ${code} before reporting: ${out}`)));
  });
  // While it runs, its namespaces and links are really there (so "as before" below means removed).
  const during = hostNetwork();
  for (const ns of started.namespaces) expect(during.namespaces.split('\n')).toContain(ns);
  for (const link of started.links) expect(during.links.split('\n')).toContain(link);
  expect(started.pids.every(isAlive)).toBe(true);
  const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
  if (signal) child.kill(signal);
  else child.stdin.end('dispose\n');
  await exited;
  return { before, after: await settled(before, started) };
}

describe.skipIf(unavailable !== undefined)(
  `the netns backend leaves the host's network as it found it${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    const cases: [string, 'dispose' | 'wait', NodeJS.Signals?][] = [
      ['dispose()', 'dispose'],
      ['Ctrl-C (SIGINT)', 'wait', 'SIGINT'],
      ['SIGTERM', 'wait', 'SIGTERM'],
      ['kill -9 of the harness', 'wait', 'SIGKILL'],
    ];
    for (const [name, mode, signal] of cases) {
      it(`after ${name}: namespaces, links and the root rule set as before; no process, no temp dir`, async () => {
        const { before, after } = await endHarness(mode, signal);
        expect(after).toEqual({ ...before, pids: [], dirExists: false });
      });
    }
  },
);
