// script-evict finds what only a server that evicts EVAL-loaded scripts shows: the mutant that loads
// its scripts with EVAL and never falls back from EVALSHA is refused on Redis 8.2 under script-evict
// alone, and certified under the same fault on Redis 7.0 (which keeps every script) and on 8.2 with no
// fault: the fault, on that server, is what finds it. On 8.2 the default faults (all) take it, and the
// certificate's faults say it ran. The real CLI, one cluster each, a few seconds each.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';

const MUTANT = 'module:scenarios/mutants/idempotency/eval-loaded-no-fallback/store.ts';
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-script-evict-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));

function certify(...args: string[]): { code: number | null; cert: Record<string, any> } {
  return certifyImpl(MUTANT, '--runs', '6', '--seed', '1', ...args);
}

function certifyImpl(impl: string, ...args: string[]): { code: number | null; cert: Record<string, any> } {
  const r = spawnSync(
    process.execPath,
    [
      'bin/chaoslua.mjs',
      'certify',
      '--impl',
      impl,
      '--pattern',
      'idempotency',
      '--clusters',
      '1',
      '--report',
      reports,
      '--json',
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

describe('script-evict', () => {
  it('refuses the EVAL-loaded, no-fallback mutant on Redis 8.2 (noscript-unhandled), with nothing else', () => {
    const { code, cert } = certify('--faults', 'script-evict', '--server', 'redis-8.2');
    expect(cert.redis.version).toBe('8.2.3');
    expect(code).toBe(1);
    expect(cert.findings.join('\n')).toMatch(/^noscript-unhandled/m);
    expect(Object.keys(cert.faults)).toEqual(['script-evict']);
  });

  // The reference, certified, so nothing is shrunk; seed 5's 3 runs draw script-evict on 8.2 (4 times
  // when measured). That all leaves it out on 7.0 is the last case's 7.0 job and suites/unit/certify/server-faults.test.ts.
  it('runs script-evict in the default faults on Redis 8.2, which evicts', () => {
    const { code, cert } = certifyImpl('lua:lua/idempotency', '--server', 'redis-8.2', '--runs', '3', '--seed', '5');
    expect(code).toBe(0);
    expect(cert.redis.features.evictsScripts).toBe(true);
    expect(cert.faults['script-evict']).toBeGreaterThan(0);
    expect(cert.faultsAsked).toBeUndefined();
  });

  it('certifies it under the same fault on Redis 7.0, which keeps every script, and on 8.2 without it', () => {
    const kept = certify('--faults', 'script-evict');
    expect(kept.cert.redis.version).toBe('7.0.15');
    expect(kept.cert.faults['script-evict']).toBeGreaterThan(0);
    expect(kept.code).toBe(0);
    expect(certify('--faults', 'none', '--server', 'redis-8.2').code).toBe(0);
  });
});
