// The reference Redlock on five independent masters, through the real CLI: certified under every fault
// those masters run and every clock fault, and the blind-delete lock mutant (its release deletes
// whoever holds the key) rejected on them, so the judge can fail there. About 30 s in all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-masters-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));

function certify(impl: string, ...args: string[]): { code: number | null; cert: Record<string, any> } {
  // The corpus goes with the run's reports, not beside the scripts.
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
      'masters',
      '--clusters',
      '1',
      '--report',
      reports,
      '--json',
      '--no-lint',
      '--corpus',
      path.join(reports, 'corpus'),
      ...args,
    ],
    {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  return { code: r.status, cert: JSON.parse(r.stdout) };
}

it('certifies the reference Redlock on five masters under every fault they run and the clock faults', () => {
  const { code, cert } = certify('lua:lua/lock', '--faults', 'all,clocks', '--runs', '8', '--seed', '20261206');
  expect(cert.redis.topology).toBe('5 independent masters n0,n1,n2,n3,n4 (no cluster, no replicas)');
  expect(cert.invariants.map((i: { invariant: string; passed: boolean }) => [i.invariant, i.passed])).toEqual([
    ['one-holder', true],
    ['no-stale-release', true],
    ['model-conformance', true],
  ]);
  expect(Object.keys(cert.faults).some((f) => f.startsWith('failover'))).toBe(false);
  expect(code).toBe(0);
}, 240_000);

it('rejects the blind-delete lock mutant on the same masters', () => {
  const { code, cert } = certify(
    'lua:scenarios/mutants/lock/release-blind-delete',
    '--runs',
    '10',
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
}, 240_000);
