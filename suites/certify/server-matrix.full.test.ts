// certify --servers, the real CLI: one job per server with one seed, a verdict per server in
// matrix.json, a JUnit case per server, and merge making the same matrix of the servers' own
// certificates as if they came from separate machines. The second case is a matrix whose verdicts
// differ by server: the EVAL-loaded, no-fallback mutant under script-evict, kept on Redis 7.0 (which
// keeps every script), refused on Valkey 8.1 (which evicts EVAL-loaded scripts past 500).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';
import type { Certificate } from '../../src/report/certificate.ts';
import type { MatrixCertificate } from '../../src/report/matrix-certificate.ts';

const MUTANT = 'module:scenarios/mutants/idempotency/eval-loaded-no-fallback/store.ts';
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-server-matrix-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));

function chaoslua(args: string[]) {
  const r = spawnSync(process.execPath, ['bin/chaoslua.mjs', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** certify --servers into a report folder of its own: the run, its matrix.json and each server's certificate. */
function matrix(args: string[]) {
  const report = fs.mkdtempSync(path.join(reports, 'r-'));
  const r = chaoslua(['certify', ...args, '--servers', 'redis-7.0,valkey-8.1', '--clusters', '1', '--report', report]);
  const file = r.stdout.match(/^ {2}matrix: (\S+)$/m)?.[1];
  expect(file, r.stdout + r.stderr).toBeDefined();
  const m = JSON.parse(fs.readFileSync(file!, 'utf8')) as MatrixCertificate;
  const certificates = m.servers.map((s) => path.join(path.dirname(file!), s.certificate));
  return {
    ...r,
    dir: path.dirname(file!),
    matrix: m,
    certificates,
    certs: certificates.map((c) => JSON.parse(fs.readFileSync(c, 'utf8')) as Certificate),
  };
}

describe('certify --servers', () => {
  it('runs the reference lock on Redis 7.0 and Valkey 8.1 with one seed: a line, a verdict and a JUnit case per server', {
    timeout: 240_000,
  }, () => {
    const r = matrix(['--pattern', 'lock', '--impl', 'lua:lua/lock', '--runs', '2', '--seed', '11']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^chaoslua certify --servers: CERTIFIED — lock, lua:\S+, seed 11: 2 of 2 server\(s\) certified\n {2}redis-7\.0 +Redis 7\.0\.\d+ \(jemalloc-[\d.]+\) +certified +2 runs, \d+ operations, [\d.]+ s\n {2}valkey-8\.1 +Valkey 8\.1\.8 \(libc\) +certified +2 runs/,
    );
    expect(r.matrix).toMatchObject({ kind: 'matrix', certified: true, pattern: 'lock', seed: 11 });
    expect(r.matrix.servers.map((s) => [s.asked, s.server, s.verdict])).toEqual([
      ['redis-7.0', 'redis', 'certified'],
      ['valkey-8.1', 'valkey', 'certified'],
    ]);
    // The same schedules on each: one seed, the same runs, each certificate naming its own server.
    expect(r.certs.map((c) => [c.seed, c.runs, c.redis.server, c.redis.asked])).toEqual([
      [11, 2, 'redis', 'redis-7.0'],
      [11, 2, 'valkey', 'valkey-8.1'],
    ]);
    expect(r.certificates.map((c) => path.relative(r.dir, c).split(path.sep)[0])).toEqual(['redis-7.0', 'valkey-8.1']);
    const junit = fs.readFileSync(path.join(r.dir, 'junit.xml'), 'utf8');
    expect([...junit.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => m[1])).toEqual([
      expect.stringMatching(/^redis-7\.0 \(Redis 7\.0/),
      'valkey-8.1 (Valkey 8.1.8 (libc))',
    ]);
    expect(junit).toContain('failures="0"');
  });

  it('refuses the EVAL-loaded no-fallback mutant on Valkey 8.1 only, under script-evict: exit 1; merge of the two certificates makes the same matrix', {
    timeout: 240_000,
  }, () => {
    const r = matrix([
      '--pattern',
      'idempotency',
      '--impl',
      MUTANT,
      '--faults',
      'script-evict',
      '--runs',
      '6',
      '--seed',
      '1',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.matrix.servers.map((s) => [s.asked, s.verdict])).toEqual([
      ['redis-7.0', 'certified'],
      ['valkey-8.1', 'not certified'],
    ]);
    expect(r.matrix.servers[1].findings.join('\n')).toMatch(/^noscript-unhandled/m);
    expect(r.stdout).toMatch(/^ {2}valkey-8\.1 +Valkey 8\.1\.8 \(libc\) +NOT CERTIFIED +\d+ runs: noscript-unhandled/m);
    const out = path.join(r.dir, 'merged.json');
    const merged = chaoslua(['merge', r.certificates[1], r.certificates[0], '--out', out]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(1);
    const m = JSON.parse(fs.readFileSync(out, 'utf8')) as MatrixCertificate;
    expect(m.servers.map((s) => [s.asked, s.verdict])).toEqual([
      ['valkey-8.1', 'not certified'],
      ['redis-7.0', 'certified'],
    ]);
    // Other code on the other machine is not the same matrix: one line, exit 2.
    const other = path.join(r.dir, 'other.json');
    fs.writeFileSync(
      other,
      JSON.stringify({ ...r.certs[1], implementation: { ...r.certs[1].implementation, sha256: 'f'.repeat(64) } }),
    );
    const refused = chaoslua(['merge', r.certificates[0], other, '--out', path.join(r.dir, 'refused.json')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^chaoslua: merge: \S+other\.json: implementation sha256 ffffffffffff…, but \S+ has [0-9a-f]{12}… \(a matrix is one implementation on several servers\)\n$/,
    );
  });
});
