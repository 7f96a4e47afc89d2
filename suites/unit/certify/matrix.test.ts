import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  matrixCertificate,
  matrixExitCode,
  matrixJunitCases,
  matrixServer,
  matrixSummary,
} from '../../../src/certify/matrix.ts';
import { isMatrixMerge, mergeMatrix } from '../../../src/certify/matrix-merge.ts';
import type { CertificateFile } from '../../../src/certify/matrix-file.ts';
import { MergeError } from '../../../src/certify/merge.ts';
import { run as mergeCli } from '../../../src/cli/merge.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import type { Certificate } from '../../../src/report/certificate.ts';
import type { MatrixCertificate } from '../../../src/report/matrix-certificate.ts';
import { renderMatrixPage } from '../../../src/report/matrix-page.ts';

// The server matrix: per-server certificates into one verdict per server, and merge's rules for them.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const features = { functions: true, shebangFlags: true, evictsScripts: false, frozenTime: false };

/** One server's certificate, as certify --server writes it. */
function onServer(server: string, version: string, over: Partial<Mutable<Certificate>> = {}): Certificate {
  return {
    version: 1,
    certified: true,
    pattern: 'lock',
    implementation: { spec: 'lua:/x/lock', sha256: 'a'.repeat(64) },
    redis: {
      version,
      server,
      allocator: 'libc',
      features,
      asked: `${server}-${version.slice(0, 3)}`,
      topology: 'n0 master',
      cluster: 'local',
    },
    seed: 42,
    runs: 20,
    operations: 1000,
    faults: { toxic: 3 },
    invariants: [
      { invariant: 'one-holder', passed: true, violations: [] },
      { invariant: 'model-conformance', passed: true, violations: [] },
    ],
    findings: [],
    replicationLosses: 0,
    issuedAt: '2026-12-01T00:00:00.000Z',
    seconds: 30,
    ...over,
  };
}

const refused = (server: string, version: string) =>
  onServer(server, version, {
    certified: false,
    invariants: [
      {
        invariant: 'one-holder',
        passed: false,
        violations: [
          { invariant: 'one-holder', message: 'two holders', counterexample: 'c.json' },
          { invariant: 'one-holder', message: 'again' },
        ],
      },
    ],
    findings: ['crash: x'],
  });

const cert = (file: string, certificate: Certificate): CertificateFile => ({ file, certificate });

describe('the matrix of verdicts', () => {
  it('is certified only when every server is, with a line and a JUnit case per server', () => {
    const ok = matrixCertificate(
      onServer('redis', '7.0.15'),
      [
        matrixServer('redis-7.0', onServer('redis', '7.0.15'), 'a/certificate.json'),
        matrixServer('valkey-8.1', onServer('valkey', '8.1.8'), 'b/certificate.json'),
      ],
      61.2,
    );
    expect(ok).toMatchObject({ kind: 'matrix', certified: true, pattern: 'lock', seed: 42, seconds: 61.2 });
    expect(matrixExitCode(ok)).toBe(0);
    const bad = matrixCertificate(
      onServer('redis', '7.0.15'),
      [...ok.servers, matrixServer('redis-6.2', refused('redis', '6.2.5'), 'c/certificate.json')],
      90,
    );
    expect(bad.certified).toBe(false);
    expect(bad.servers[2]).toMatchObject({
      verdict: 'not certified',
      failed: ['one-holder (2)'],
      findings: ['crash: x'],
    });
    expect(matrixExitCode(bad)).toBe(1);
    const lines = matrixSummary(bad, 'm/matrix.json').split('\n');
    expect(lines[0]).toBe(
      'chaoslua certify --servers: NOT CERTIFIED — lock, lua:/x/lock, seed 42: 2 of 3 server(s) certified',
    );
    expect(lines[1]).toMatch(/^ {2}redis-7\.0 +Redis 7\.0\.15 \(libc\) +certified +20 runs, 1000 operations, 30\.0 s$/);
    expect(lines[3]).toMatch(
      /^ {2}redis-6\.2 +Redis 6\.2\.5 \(libc\) +NOT CERTIFIED +20 runs: broke one-holder \(2\); crash: x$/,
    );
    expect(lines[4]).toBe('  matrix: m/matrix.json');
    const cases = matrixJunitCases(bad);
    expect(cases.map((c) => [c.name, c.passed])).toEqual([
      ['redis-7.0 (Redis 7.0.15 (libc))', true],
      ['valkey-8.1 (Valkey 8.1.8 (libc))', true],
      ['redis-6.2 (Redis 6.2.5 (libc))', false],
    ]);
    expect(cases[2].message).toBe('not certified: broke one-holder (2); crash: x');
  });

  it('exits 3 when no server was refused but one never ran to its end, and 1 when one was refused whatever else', () => {
    const incomplete = onServer('redis', '8.2.3', {
      certified: false,
      incomplete: true,
      findings: ['environment: cluster lost'],
    });
    const m = matrixCertificate(
      onServer('redis', '7.0.15'),
      [matrixServer('a', onServer('redis', '7.0.15'), ''), matrixServer('b', incomplete, '')],
      1,
    );
    expect(m.servers[1].verdict).toBe('incomplete');
    expect(matrixExitCode(m)).toBe(3);
    expect(
      matrixExitCode(matrixCertificate(m, [...m.servers, matrixServer('c', refused('valkey', '8.1.8'), '')], 1)),
    ).toBe(1);
    expect(matrixCertificate(m, [], 0).certified).toBe(false);
  });
});

describe('matrix.html', () => {
  it('has a row per server, its verdict and a link to its own report', () => {
    const m = matrixCertificate(
      onServer('redis', '7.0.15'),
      [
        matrixServer('redis-7.0', onServer('redis', '7.0.15'), 'redis-7.0/run-1/certificate.json'),
        matrixServer('<b>', refused('valkey', '8.1.8'), ''),
      ],
      3,
    );
    const page = renderMatrixPage(m);
    expect(page.match(/<tr><td class="mono">/g)).toHaveLength(2);
    expect(page).toContain('<a href="redis-7.0/run-1/report.html">report</a>');
    expect(page).toContain('<td class="verdict-illegal">NOT CERTIFIED</td>');
    expect(page).toContain('broke one-holder (2); crash: x');
    expect(page).toContain('&lt;b&gt;');
    expect(page).not.toContain('<b>');
  });
});

describe('merging per-server certificates into a matrix', () => {
  it('certificates of different servers make a matrix, in the order given; of one server they do not', () => {
    const inputs = [
      cert('m1/certificate.json', onServer('redis', '7.0.15')),
      cert('m2/certificate.json', refused('valkey', '8.1.8')),
    ];
    expect(isMatrixMerge(inputs)).toBe(true);
    expect(
      isMatrixMerge([
        inputs[0],
        cert('m3/certificate.json', onServer('redis', '7.0.15', { shard: { index: 1, count: 2 } })),
      ]),
    ).toBe(false);
    const m = mergeMatrix(inputs, 'now');
    expect(m).toMatchObject({ kind: 'matrix', certified: false, seed: 42, seconds: 60, issuedAt: 'now' });
    expect(m.servers.map((s) => [s.asked, s.server, s.version, s.verdict, s.certificate])).toEqual([
      ['redis-7.0', 'redis', '7.0.15', 'certified', 'm1/certificate.json'],
      ['valkey-8.1', 'valkey', '8.1.8', 'not certified', 'm2/certificate.json'],
    ]);
  });

  it('refuses in one line what is not one implementation under one plan', () => {
    const a = cert('a.json', onServer('redis', '7.0.15'));
    const cases: [Partial<Mutable<Certificate>>, RegExp][] = [
      [
        { implementation: { spec: 'lua:/y', sha256: 'b'.repeat(64) } },
        /^b\.json: implementation sha256 bbbbbbbbbbbb…, but a\.json has aaaaaaaaaaaa… \(a matrix is one implementation on several servers\)$/,
      ],
      [{ pattern: 'semaphore' }, /^b\.json: pattern semaphore, but a\.json is lock$/],
      [{ seed: 7 }, /^b\.json: seed 7, but a\.json has 42 \(every server of a matrix runs the same schedules\)$/],
      [{ faultsAsked: ['toxic'] }, /^b\.json: faults toxic, but a\.json has all/],
      [{ durability: 'wait:1:100' }, /^b\.json: durability wait:1:100, but a\.json has none$/],
    ];
    for (const [over, message] of cases) {
      const b = cert('b.json', onServer('valkey', '8.1.8', over));
      expect(() => mergeMatrix([a, b])).toThrow(MergeError);
      expect(() => mergeMatrix([a, b])).toThrow(message);
    }
  });

  it('one verdict per server: a server twice is refused, whatever name it was asked by', () => {
    const a = cert('a.json', onServer('redis', '7.0.15'));
    const v = cert('v.json', onServer('valkey', '8.1.8'));
    const again = cert(
      'again.json',
      onServer('redis', '7.0.15', { redis: { ...onServer('redis', '7.0.15').redis, asked: '/usr/bin/redis-server' } }),
    );
    expect(() => mergeMatrix([a, v, again])).toThrow(
      /^again\.json: redis 7\.0\.15 is also a\.json \(a matrix has one verdict per server\)$/,
    );
    const matrix: MatrixCertificate = mergeMatrix([a, v]);
    expect(() => mergeMatrix([{ file: 'x/matrix.json', matrix }, again])).toThrow(
      /^x\/matrix\.json: redis 7\.0\.15 is also in again\.json/,
    );
  });

  it('merges the shards of one server first, and a matrix with a certificate of a new server', () => {
    const s = (index: number) =>
      cert(`s${index}.json`, onServer('redis', '8.2.3', { shard: { index, count: 2 }, runs: 10, seconds: 20 + index }));
    const m = mergeMatrix([cert('a.json', onServer('redis', '7.0.15')), s(1), s(0)]);
    expect(m.servers.map((x) => [x.asked, x.runs, x.certificate])).toEqual([
      ['redis-7.0', 20, 'a.json'],
      ['redis-8.2', 20, 's1.json, s0.json'],
    ]);
    expect(() => mergeMatrix([cert('a.json', onServer('redis', '7.0.15')), s(0)])).toThrow(/^shard 1\/2 missing/);
    expect(() =>
      mergeMatrix([
        cert('v.json', onServer('valkey', '8.1.8')),
        s(0),
        s(1),
        cert('w.json', onServer('redis', '8.2.3')),
      ]),
    ).toThrow(/^w\.json: redis 8\.2\.3 is given both as a whole job and as shards \(s0\.json\)$/);
    const grown = mergeMatrix([
      {
        file: 'runs/m/matrix.json',
        matrix: mergeMatrix(
          [cert('a.json', onServer('redis', '7.0.15'))].concat([cert('v.json', onServer('valkey', '8.1.8'))]),
        ),
      },
      s(0),
      s(1),
    ]);
    expect(grown.servers.map((x) => [x.asked, x.certificate])).toEqual([
      ['redis-8.2', 's0.json, s1.json'],
      ['redis-7.0', 'runs/m/a.json'],
      ['valkey-8.1', 'runs/m/v.json'],
    ]);
    // The shards' evidence is judged over both (as merge of shards alone judges it): these counted none.
    expect(grown.servers[0]).toMatchObject({
      verdict: 'not certified',
      findings: ['evidence: no operation succeeded: 0 of 0 ok'],
    });
    expect(grown.servers.slice(1).map((x) => x.verdict)).toEqual(['certified', 'certified']);
    expect(grown.certified).toBe(false);
  });
});

describe('chaoslua merge with certificates of several servers', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-matrix-merge-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } },
    };
  };

  it('writes matrix.json and a JUnit case per server; exit 1 when a server was refused, 0 when none', async () => {
    const a = write('a.json', onServer('redis', '7.0.15'));
    const v = write('v.json', onServer('valkey', '8.1.8'));
    const r = write('r.json', refused('redis', '6.2.5'));
    const out = path.join(tmp, 'matrix.json');
    const junit = path.join(tmp, 'junit.xml');
    const c = io();
    expect(await mergeCli([a, v, '--out', out, '--junit', junit], c.io)).toBe(0);
    expect(c.out.stdout).toMatch(
      /^chaoslua merge: CERTIFIED — lock, lua:\/x\/lock, seed 42: 2 of 2 server\(s\) certified\n/,
    );
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ kind: 'matrix', certified: true });
    expect(fs.readFileSync(junit, 'utf8').match(/<testcase /g)).toHaveLength(2);
    // The matrix just written merges again with a third server.
    expect(await mergeCli([out, r, '--out', path.join(tmp, 'm2.json')], io().io)).toBe(1);
    expect(JSON.parse(fs.readFileSync(path.join(tmp, 'm2.json'), 'utf8')).servers).toHaveLength(3);
  });

  it('refuses a mismatched implementation and a broken matrix.json in one line', async () => {
    const a = write('a.json', onServer('redis', '7.0.15'));
    const other = write(
      'other.json',
      onServer('valkey', '8.1.8', { implementation: { spec: 'lua:/y', sha256: 'c'.repeat(64) } }),
    );
    await expect(mergeCli([a, other, '--out', path.join(tmp, 'x.json')], io().io)).rejects.toThrow(
      new UsageError(
        `merge: ${other}: implementation sha256 cccccccccccc…, but ${a} has aaaaaaaaaaaa… (a matrix is one implementation on several servers)`,
      ),
    );
    const broken = write('broken.json', {
      version: 1,
      kind: 'matrix',
      certified: true,
      pattern: 'lock',
      implementation: { spec: 's', sha256: 'a' },
      seed: 1,
      servers: [{ asked: 'x', version: '7', verdict: 'maybe' }],
    });
    await expect(mergeCli([a, broken, '--out', path.join(tmp, 'y.json')], io().io)).rejects.toThrow(
      /^merge: \S+broken\.json: not a valid matrix: servers\[0\]\.certificate: expected a string, got nothing$/,
    );
  });
});
