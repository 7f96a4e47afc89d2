// The reference lock on a primary with two replicas under three Sentinels, through the real CLI:
// certified under the default faults (Sentinel's own failover among them), and the blind-delete lock
// mutant (its release deletes whoever holds the key) rejected there, so the judge can fail on it too. About 38 s.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-sentinel-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));

function certify(impl: string, ...args: string[]): { code: number | null; cert: Record<string, any> } {
  const r = spawnSync(
    process.execPath,
    [
      'bin/chaoslua.mjs',
      'certify',
      '--impl',
      impl,
      '--pattern',
      'lock',
      '--topology',
      'sentinel',
      '--clusters',
      '2',
      '--report',
      reports,
      '--json',
      '--no-lint',
      '--no-corpus',
      ...args,
    ],
    { cwd: projectRoot, encoding: 'utf8', timeout: 120_000 },
  );
  return { code: r.status, cert: JSON.parse(r.stdout) };
}

it('certifies the reference lock on sentinel:2 under the default faults, a Sentinel failover among them', () => {
  const { code, cert } = certify('lua:lua/lock', '--runs', '6', '--seed', '20261207');
  expect(cert.redis.topology).toMatch(/^sentinel:2 n\d primary <- n\d,n\d \| 3 sentinels$/);
  expect(cert.invariants.map((i: { invariant: string; passed: boolean }) => [i.invariant, i.passed])).toEqual([
    ['one-holder', true],
    ['no-stale-release', true],
    ['model-conformance', true],
  ]);
  expect(cert.faults['failover-default']).toBeGreaterThan(0);
  expect(Object.keys(cert.faults).filter((f) => /force|takeover|partition/.test(f))).toEqual([]);
  expect(code).toBe(0);
}, 120_000);

it('rejects the blind-delete lock mutant on the same topology', () => {
  const { code, cert } = certify(
    'lua:scenarios/mutants/lock/release-blind-delete',
    '--runs',
    '4',
    '--seed',
    '5',
    '--shrink-time',
    '5s',
  );
  expect(code).toBe(1);
  expect(cert.certified).toBe(false);
  expect(
    cert.invariants.filter((i: { passed: boolean }) => !i.passed).map((i: { invariant: string }) => i.invariant),
  ).toContain('no-stale-release');
}, 120_000);
