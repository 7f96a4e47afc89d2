import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatrixCertificate } from '../../../src/report/matrix-certificate.ts';
import { cli, expectUsage as usage, forbidClusters } from './support.ts';

// certify --servers: the list is checked and every server resolved at the edge, before any cluster starts.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-servers-flag-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const lock = ['certify', '--pattern', 'lock', '--impl', 'lua:lua/lock', '--runs', '1', '--report', tmp];

const expectUsage = (argv: string[], message: RegExp) => usage(argv, message, attempts);

describe('--servers, refused at the edge', () => {
  it('an unknown name, a missing path, an empty entry', async () => {
    await expectUsage(
      [...lock, '--servers', 'redis-7.0,redis-9.9'],
      /^chaoslua: certify: --servers: unknown server 'redis-9\.9' \(expected redis-6\.2, /,
    );
    await expectUsage(
      [...lock, '--servers', 'redis-7.0,/nonexistent/redis-server'],
      /^chaoslua: certify: --servers \/nonexistent\/redis-server: no such file\n$/,
    );
    await expectUsage(
      [...lock, '--servers', 'redis-7.0,,valkey-8.1'],
      /^chaoslua: certify: --servers: expected a comma list of server names or paths, got 'redis-7\.0,,valkey-8\.1'\n$/,
    );
    await expectUsage([...lock, '--servers', ''], /^chaoslua: certify: --servers: expected a comma list/);
  });

  it('a server twice, by name or by the binary two spellings name', async () => {
    await expectUsage(
      [...lock, '--servers', 'redis-7.0,redis-7.0'],
      /^chaoslua: certify: --servers: redis-7\.0 given twice\n$/,
    );
    // Debian's redis-server is a link to redis-check-rdb, which acts by the name it is called by: compared by where links lead.
    await expectUsage(
      [...lock, '--servers', 'redis-7.0,/usr/bin/redis-server'],
      /^chaoslua: certify: --servers: \/usr\/bin\/redis-server and redis-7\.0 are the same binary \(\/usr\/bin\/redis-check-rdb\)\n$/,
    );
  });

  it('not with --server, --shard or --baseline, nor on a cluster it does not start', async () => {
    await expectUsage(
      [...lock, '--servers', 'redis-7.0', '--server', 'redis-7.0'],
      /^chaoslua: certify: --servers and --server cannot be used together/,
    );
    await expectUsage(
      [...lock, '--servers', 'redis-7.0', '--shard', '0/2', '--seed', '1'],
      /^chaoslua: certify: --servers and --shard cannot be used together \(--shard applies to one job on one server\)\n$/,
    );
    await expectUsage(
      [...lock, '--servers', 'redis-7.0', '--cluster', 'redis://127.0.0.1:1'],
      /^chaoslua: certify: --servers applies to clusters the harness starts \(--cluster local or netns\), not --cluster external\n$/,
    );
  });

  it('run has no --servers (a matrix is a certificate)', async () => {
    await expectUsage(
      ['run', '--pattern', 'lock', '--runs', '1', '--servers', 'redis-7.0'],
      /^chaoslua: run: Unknown option '--servers'/,
    );
  });
});

describe('a server whose cluster cannot start', () => {
  it('is recorded incomplete, the matrix goes on to the next, and the exit is 3', async () => {
    const r = await cli([...lock, '--servers', 'redis-7.0,valkey-8.1', '--seed', '5', '--clusters', '1']);
    expect(r.code, r.stderr).toBe(3);
    expect(attempts).toEqual(['local', 'local']);
    expect(r.stdout).toMatch(
      /^chaoslua certify --servers: NOT CERTIFIED — lock, lua:\S+, seed 5: 0 of 2 server\(s\) certified\n {2}redis-7\.0 +not started +INCOMPLETE +0 runs: environment: test: a local cluster was about to start\n {2}valkey-8\.1 /,
    );
    const file = r.stdout.match(/matrix: (\S+)/)![1];
    const matrix = JSON.parse(fs.readFileSync(file, 'utf8')) as MatrixCertificate;
    expect(matrix).toMatchObject({ kind: 'matrix', certified: false, pattern: 'lock', seed: 5 });
    expect(matrix.servers.map((s) => [s.asked, s.verdict])).toEqual([
      ['redis-7.0', 'incomplete'],
      ['valkey-8.1', 'incomplete'],
    ]);
    const junit = fs.readFileSync(path.join(path.dirname(file), 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(2);
    expect(junit).toContain('failures="2"');
    expect(fs.readFileSync(path.join(path.dirname(file), 'matrix.html'), 'utf8')).toMatch(
      /Server matrix: <span class="verdict-illegal">NOT CERTIFIED/,
    );
  });
});
