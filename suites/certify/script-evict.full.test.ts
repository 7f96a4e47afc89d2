// script-evict finds what only a server that evicts EVAL-loaded scripts shows: the mutant that loads
// its scripts with EVAL and never falls back from EVALSHA is refused on Redis 8.2 under script-evict
// alone, and certified under the same fault on Redis 7.0 (which keeps every script) and on 8.2 with no
// fault: the fault, on that server, is what finds it. The real CLI, one cluster each, a few seconds each.
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
  const r = spawnSync(
    process.execPath,
    [
      'bin/chaoslua.mjs',
      'certify',
      '--impl',
      MUTANT,
      '--pattern',
      'idempotency',
      '--runs',
      '6',
      '--clusters',
      '1',
      '--seed',
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

  it('certifies it under the same fault on Redis 7.0, which keeps every script, and on 8.2 without it', () => {
    const kept = certify('--faults', 'script-evict');
    expect(kept.cert.redis.version).toBe('7.0.15');
    expect(kept.cert.faults['script-evict']).toBeGreaterThan(0);
    expect(kept.code).toBe(0);
    expect(certify('--faults', 'none', '--server', 'redis-8.2').code).toBe(0);
  });
});
