import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { END, readMatrices, renderTable, START, withTable } from '../../../scripts/servers-table.ts';
import { matrixCertificate, matrixServer } from '../../../src/certify/matrix.ts';
import type { Certificate } from '../../../src/report/certificate.ts';

// The verdicts-per-server table of docs/servers.md is generated from the matrices kept in
// bench/results/servers/: the page holds what they say, and a cell says what its server's job found.

const ROOT = path.resolve(import.meta.dirname, '../../..');

function cert(server: string, version: string, certified: boolean): Certificate {
  return {
    version: 1,
    certified,
    pattern: 'lock',
    implementation: { spec: `lua:${ROOT}/lua/lock`, sha256: 'a' },
    redis: {
      version,
      server,
      allocator: 'libc',
      features: { functions: true, shebangFlags: true, evictsScripts: version >= '7.4', frozenTime: false },
      topology: '',
      cluster: 'local',
    },
    seed: 9,
    runs: 20,
    operations: 1500,
    faults: {},
    replicationLosses: 0,
    issuedAt: '',
    seconds: 31.6,
    invariants: [
      {
        invariant: 'one-holder',
        passed: certified,
        violations: certified ? [] : [{ invariant: 'one-holder', message: 'x' }],
      },
    ],
    findings: certified ? [] : ['noscript-unhandled: NOSCRIPT reached the caller'],
  };
}

describe('the servers table', () => {
  it('has a column per server in the table order, the probes above, and a cell per verdict', () => {
    const m = matrixCertificate(
      cert('redis', '7.0.15', true),
      [
        matrixServer('valkey-8.1', cert('valkey', '8.1.8', false), 'v.json'),
        matrixServer('redis-7.0', cert('redis', '7.0.15', true), 'r.json'),
      ],
      70,
    );
    const table = renderTable([{ file: 'lock.json', matrix: m }]);
    const lines = table.split('\n');
    expect(lines[0]).toBe('| probed on the running node | `redis-7.0` | `valkey-8.1` |');
    expect(lines[2]).toBe('| server (allocator) | Redis 7.0.15 (libc) | Valkey 8.1.8 (libc) |');
    expect(lines).toContain('| evicts EVAL-loaded scripts | no | yes |');
    expect(lines.at(-1)).toBe(
      '| `lua:lua/lock` (lock) | 20, 9, default (all) | certified (1500 ops, 32 s) | **not certified**: broke one-holder (1); noscript-unhandled | **not certified**, 70 s ([lock.json](../bench/results/servers/lock.json)) |',
    );
  });

  it('counts script-evict in a default cell where the server evicts (all takes it there), and nowhere else', () => {
    const evicting = { ...cert('valkey', '8.1.8', true), faults: { 'script-evict': 4 } };
    const m = matrixCertificate(
      cert('redis', '7.0.15', true),
      [
        matrixServer('redis-7.0', cert('redis', '7.0.15', true), 'r.json'),
        matrixServer('valkey-8.1', evicting, 'v.json'),
      ],
      70,
    );
    expect(
      renderTable([{ file: 'lock.json', matrix: m }])
        .split('\n')
        .at(-1),
    ).toBe(
      '| `lua:lua/lock` (lock) | 20, 9, default (all) | certified (1500 ops, 32 s) | certified (1500 ops, script-evict 4, 32 s) | certified, 70 s ([lock.json](../bench/results/servers/lock.json)) |',
    );
  });

  it('docs/servers.md holds the table the kept matrices make', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/servers.md'), 'utf8');
    expect(page).toContain(START);
    expect(page).toContain(END);
    const matrices = readMatrices();
    expect(matrices.length).toBeGreaterThan(0);
    expect(withTable(page, renderTable(matrices))).toBe(page);
  });
});
