import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../support/processes.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/chaoslua.mjs');

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, without blocking: the usage cases start their processes side by side (each mostly loads TypeScript). */
function cliAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('chaoslua CLI: help and usage errors', () => {
  it('--help lists the commands and exits 0', () => {
    const r = cli(['--help']);
    expect(r.code).toBe(0);
    for (const command of ['certify', 'run', 'replay', 'lint', 'cluster']) expect(r.stdout).toContain(command);
  });

  it('cluster --help exits 0', () => {
    const r = cli(['cluster', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('chaoslua cluster up');
  });

  // Through the real entry point (bin/chaoslua.mjs, its own process): the exit code and the one
  // line reach the shell. Every other usage error is checked in-process by suites/unit/cli/usage.test.ts.
  const usage: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['a bad number', ['run', '--runs', 'many'], /--runs must be an integer/],
  ];
  for (const [what, args, message] of usage) {
    it.concurrent(`${what}: one line naming it, exit 2`, async () => {
      const r = await cliAsync(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    });
  }

  it('Lua that does not compile: names the file and line, exit 2', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-badlua-'));
    for (const name of ['register_or_get', 'complete', 'release', 'renew']) {
      fs.copyFileSync(
        path.resolve(import.meta.dirname, `../../lua/idempotency/${name}.lua`),
        path.join(dir, `${name}.lua`),
      );
    }
    fs.writeFileSync(
      path.join(dir, 'renew.lua'),
      '-- KEYS[1] = key\nif redis.call("EXISTS", KEYS[1]) == 1 then\n  return 1\n',
    );
    try {
      const r = cli(['certify', '--impl', `lua:${dir}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/renew\.lua:\d+/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chaoslua CLI: environment failures', () => {
  it('redis-server that cannot be found: one line naming it, exit 3', () => {
    const r = cli(['run', '--runs', '1'], { CHAOSLUA_REDIS_SERVER: '/no/such/redis-server' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/redis-server not found/);
  });

  it('a Toxiproxy that cannot start: one line naming it, exit 3', () => {
    const r = cli(['cluster', 'up'], { CHAOSLUA_TOXIPROXY: '/bin/false' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/toxiproxy/i);
  });
});

describe('chaoslua cluster up', () => {
  it('prints ready and the node table, serves the cluster, and tears down on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'cluster', 'up'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no node table: ${out}`)), 60_000);
      child.stdout.on('data', () => {
        if (/toxiproxy api/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(out.split('\n')[0]).toMatch(/^ready 127\.0\.0\.1:\d+$/);
    const pids = [...out.matchAll(/\s(\d+)\s*$/gm)].map((m) => Number(m[1]));
    pids.push(Number(/pid (\d+)\)/.exec(out)![1]));
    expect(pids).toHaveLength(7);
    expect(pids.every(isAlive)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
