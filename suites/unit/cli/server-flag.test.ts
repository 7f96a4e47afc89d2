import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, it, vi } from 'vitest';
import { expectUsage as usage, forbidClusters } from './support.ts';

// --server is checked at the edge: one line, exit 2, before any cluster starts.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-server-flag-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const expectUsage = (argv: string[], message: RegExp) => usage(argv, message, attempts);

describe('--server, refused at the edge', () => {
  const lock = ['--pattern', 'lock', '--impl', 'lua:lua/lock', '--runs', '1'];
  it('an unknown name names the forms', async () => {
    await expectUsage(
      ['certify', ...lock, '--server', 'redis-9.9'],
      /^chaoslua: certify: --server: unknown server 'redis-9\.9' \(expected redis-6\.2, redis-7\.0, redis-7\.4, redis-8\.2, valkey-8\.1, or a path to a redis-server or valkey-server\)\n$/,
    );
    await expectUsage(
      ['run', '--pattern', 'lock', '--runs', '1', '--server', 'valkey'],
      /^chaoslua: run: --server: unknown server 'valkey'/,
    );
  });

  it('a path that does not exist, or a program that is no server', async () => {
    await expectUsage(
      ['certify', ...lock, '--server', '/nonexistent/redis-server'],
      /^chaoslua: certify: --server \/nonexistent\/redis-server: no such file\n$/,
    );
    const ls = path.join(tmp, 'not-a-server');
    fs.writeFileSync(ls, '#!/bin/sh\necho "not a server"\n', { mode: 0o755 });
    await expectUsage(
      ['certify', ...lock, '--server', ls],
      /--server \S+: `--version` answered "not a server", not a Redis or Valkey server's line\n$/,
    );
    const old = path.join(tmp, 'redis-server-5');
    fs.writeFileSync(old, '#!/bin/sh\necho "Redis server v=5.0.14 sha=0 malloc=libc bits=64"\n', { mode: 0o755 });
    await expectUsage(['certify', ...lock, '--server', old], /redis 5\.0\.14 is older than 6\.2/);
  });

  it('on a cluster the harness does not start', async () => {
    await expectUsage(
      ['certify', ...lock, '--cluster', 'redis://127.0.0.1:7000', '--server', 'redis-8.2'],
      /--server applies to a cluster the harness starts \(--cluster local or netns\), not --cluster external/,
    );
  });
});
