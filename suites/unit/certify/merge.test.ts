import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeCertificates, MergeError, type ShardCertificate } from '../../../src/certify/merge.ts';
import { run as mergeCli } from '../../../src/cli/merge.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import type { Certificate } from '../../../src/report/certificate.ts';

// `chaoslua merge`: shard certificates in, the certificate of one job of all their runs out.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A shard's certificate as certify --shard writes it (evidence counted, not judged). */
function shard(index: number, count: number, over: Partial<Mutable<Certificate>> = {}): Certificate {
  return {
    version: 1,
    certified: true,
    pattern: 'lock',
    implementation: { spec: 'lua:/x/lock', sha256: 'a'.repeat(64) },
    redis: { version: '7.0.15', topology: 'n0 master 0-5460 <- n3', cluster: 'local' },
    seed: 42,
    runs: 10,
    discarded: { runs: index === 1 ? 1 : 0, causes: index === 1 ? ['heal failed'] : [] },
    operations: 100 + index,
    faults: { toxic: 3, [`failover-${index}`]: 1 },
    skippedFaults: [],
    evidence: {
      minOkPerOperation: 3,
      operations: {
        acquire: { issued: 40, ok: 30, fail: 5, info: 5 },
        release: { issued: 20, ok: 3, fail: 0, info: 0 },
        extend: { issued: 10, ok: 9, fail: 1, info: 0 },
      },
      transitions: { 'absent → held by acquire': 5, 'held → absent by release': index === 0 ? 2 : 0 },
      missing: [],
    },
    invariants: [
      { invariant: 'one-holder', passed: true, violations: [] },
      { invariant: 'no-stale-release', passed: true, violations: [] },
      { invariant: 'model-conformance', passed: true, violations: [] },
    ],
    findings: [],
    replicationLosses: index,
    issuedAt: '2026-12-01T00:00:00.000Z',
    seconds: 30 + index,
    shard: { index, count },
    ...over,
  };
}

const files = (certs: Certificate[]): ShardCertificate[] =>
  certs.map((certificate, i) => ({ file: `shard-${i}.json`, certificate }));

describe('merging shard certificates', () => {
  it('sums runs, operations, faults, discards and losses, and lists the shards', () => {
    const merged = mergeCertificates(files([shard(1, 3), shard(0, 3), shard(2, 3)]));
    expect(merged.certified).toBe(true);
    expect(merged.runs).toBe(30);
    expect(merged.operations).toBe(303);
    expect(merged.faults).toEqual({ toxic: 9, 'failover-0': 1, 'failover-1': 1, 'failover-2': 1 });
    expect(merged.discarded).toEqual({ runs: 1, causes: ['heal failed'] });
    expect(merged.replicationLosses).toBe(3);
    expect(merged.seconds).toBe(32);
    expect(merged.seed).toBe(42);
    expect(merged.shard).toBeUndefined();
    expect(merged.merged?.shards.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(merged.evidence?.operations.release).toEqual({
      issued: 60,
      ok: 9,
      fail: 0,
      info: 0,
      shares: { ok: 0.15, fail: 0, info: 0 },
    });
    expect(merged.evidence?.transitions['held → absent by release']).toBe(2);
    expect(merged.evidence?.minOkPerOperation).toBe(8);
  });

  it("carries the shards' durability, and has none when they ran without it", () => {
    const waited = mergeCertificates(
      files([shard(0, 2, { durability: 'wait:1:100' }), shard(1, 2, { durability: 'wait:1:100' })]),
    );
    expect(waited.durability).toBe('wait:1:100');
    expect(mergeCertificates(files([shard(0, 2), shard(1, 2)])).durability).toBeUndefined();
  });

  it("carries a team's pattern file and its digest, and refuses shards of different pattern files", () => {
    const file = { file: 'patterns/queue.mjs', sha256: 'a'.repeat(64) };
    const merged = mergeCertificates(files([shard(0, 2, { patternFile: file }), shard(1, 2, { patternFile: file })]));
    expect(merged.patternFile).toEqual(file);
    const edited = { ...file, sha256: 'b'.repeat(64) };
    expect(() =>
      mergeCertificates(files([shard(0, 2, { patternFile: file }), shard(1, 2, { patternFile: edited })])),
    ).toThrow(
      /shard-1\.json: pattern file sha256 bbbbbbbbbbbb…, but shard-0\.json has aaaaaaaaaaaa… \(shards of different pattern files\)/,
    );
    expect(mergeCertificates(files([shard(0, 2), shard(1, 2)])).patternFile).toBeUndefined();
  });

  it("carries the shards' settings, and merges a certificate written before settings with one naming the defaults", () => {
    const rl = (index: number, settings?: Record<string, number>) =>
      shard(index, 2, { pattern: 'ratelimit', ...(settings ? { settings } : {}) });
    expect(mergeCertificates(files([rl(0, { limit: 3, window: 3 }), rl(1, { limit: 3, window: 3 })])).settings).toEqual(
      { limit: 3, window: 3 },
    );
    // Written before settings existed, a ratelimit shard drew the defaults.
    expect(mergeCertificates(files([rl(0), rl(1, { limit: 3, window: 1 })])).certified).toBe(true);
    expect(mergeCertificates(files([shard(0, 2), shard(1, 2)]))).not.toHaveProperty('settings');
  });

  it('judges the evidence over all the runs, as one job of that many runs does', () => {
    // Each shard acknowledged release 3 times in 10 runs; 30 runs need 8: 9 suffices. A transition
    // no shard witnessed is missing, one witnessed by any shard is not.
    const ok = mergeCertificates(files([shard(0, 3), shard(1, 3), shard(2, 3)]));
    expect(ok.evidence?.missing).toEqual([]);
    const starved = (i: number) =>
      shard(i, 2, {
        evidence: {
          ...shard(i, 2).evidence!,
          operations: { ...shard(i, 2).evidence!.operations, release: { issued: 20, ok: 1, fail: 19, info: 0 } },
        },
      });
    const merged = mergeCertificates(files([starved(0), starved(1)]));
    expect(merged.certified).toBe(false);
    expect(merged.findings).toEqual([
      'evidence: release succeeded 2 times of 40, fewer than the 5 a certificate of 20 runs needs (one per 4 runs)',
    ]);
    const unwitnessed = mergeCertificates(files([shard(1, 2), shard(1, 2, { shard: { index: 0, count: 2 } })]));
    expect(unwitnessed.findings).toEqual(['evidence: transition held -> absent by release never observed']);
  });

  it('is certified only if every shard was: a violation anywhere fails the merge, its counterexample listed', () => {
    const failing = shard(1, 2, {
      certified: false,
      invariants: [
        {
          invariant: 'one-holder',
          passed: false,
          violations: [{ invariant: 'one-holder', message: 'two holders', counterexample: '/r/1/counterexample.json' }],
        },
        { invariant: 'no-stale-release', passed: true, violations: [] },
        { invariant: 'model-conformance', passed: true, violations: [] },
      ],
      findings: ['hang: call unanswered for 12 s'],
    });
    const merged = mergeCertificates(files([shard(0, 2), failing]));
    expect(merged.certified).toBe(false);
    expect(merged.invariants.find((s) => s.invariant === 'one-holder')).toEqual({
      invariant: 'one-holder',
      passed: false,
      violations: [{ invariant: 'one-holder', message: 'two holders', counterexample: '/r/1/counterexample.json' }],
    });
    expect(merged.invariants.filter((s) => s.passed).map((s) => s.invariant)).toEqual([
      'no-stale-release',
      'model-conformance',
    ]);
    expect(merged.findings).toEqual(['shard 1/2: hang: call unanswered for 12 s']);
  });

  it.each([
    [
      'another implementation',
      [shard(0, 2), shard(1, 2, { implementation: { spec: 'lua:/y', sha256: 'b'.repeat(64) } })],
      /implementation sha256 bbbbbbbbbbbb…, but shard-0.json has aaaaaaaaaaaa…/,
    ],
    [
      'another pattern',
      [shard(0, 2), shard(1, 2, { pattern: 'ratelimit' })],
      /pattern ratelimit, but shard-0.json is lock/,
    ],
    ['another seed', [shard(0, 2), shard(1, 2, { seed: 43 })], /seed 43, but shard-0.json has 42/],
    ['another shard count', [shard(0, 2), shard(1, 3)], /shard 1\/3, but shard-0.json is one of 2/],
    [
      'shards of other options',
      [
        shard(0, 2, { shard: { index: 0, count: 2, plan: 'runs 10; faults all' } }),
        shard(1, 2, { shard: { index: 1, count: 2, plan: 'runs 20; faults all' } }),
      ],
      /shard 1\/2 ran 'runs 20; faults all', but shard-0.json 'runs 10; faults all'/,
    ],
    [
      'another durability',
      [shard(0, 2, { durability: 'wait:1:100' }), shard(1, 2)],
      /shard-1\.json: durability none, but shard-0\.json has wait:1:100/,
    ],
    [
      'other settings',
      [
        shard(0, 2, { pattern: 'ratelimit', settings: { limit: 3, window: 3 } }),
        shard(1, 2, { pattern: 'ratelimit', settings: { limit: 3, window: 1 } }),
      ],
      /shard-1\.json: settings limit=3 window=1, but shard-0\.json has limit=3 window=3 \(shards of one budget share --set\)/,
    ],
    [
      'a shard of the defaults beside one that set them',
      [shard(0, 2, { pattern: 'ratelimit', settings: { limit: 3, window: 3 } }), shard(1, 2, { pattern: 'ratelimit' })],
      /shard-1\.json: settings limit=3 window=1, but shard-0\.json has limit=3 window=3/,
    ],
    ['a shard twice', [shard(0, 2), shard(0, 2)], /shard 0\/2 given twice/],
    ['a missing shard', [shard(0, 3), shard(2, 3)], /shard 1\/3 missing: 2 of 3 certificates given/],
    ['a certificate of no shard', [shard(0, 2), shard(1, 2, { shard: undefined })], /not a shard's certificate/],
  ] as const)('refuses %s', (_, certs, message) => {
    expect(() => mergeCertificates(files([...certs]))).toThrow(MergeError);
    expect(() => mergeCertificates(files([...certs]))).toThrow(message);
  });
});

describe('chaoslua merge', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-merge-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const io = () => {
    const out: string[] = [];
    return { out, io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } } };
  };

  it('writes the merged certificate and a JUnit file; exit 0 when certified, 1 when not', async () => {
    const a = write('a.json', shard(0, 2));
    const b = write('b.json', shard(1, 2));
    const out = path.join(dir, 'out', 'certificate.json');
    const junit = path.join(dir, 'junit.xml');
    const c = io();
    expect(await mergeCli([a, b, '--out', out, '--junit', junit], c.io)).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ certified: true, runs: 20, merged: { count: 2 } });
    expect(fs.readFileSync(junit, 'utf8')).toMatch(/tests="3" failures="0"/);
    expect(c.out.join('')).toMatch(/CERTIFIED — lock, lua:\/x\/lock, 2 shards of seed 42/);
    const bad = write('bad.json', shard(1, 2, { certified: false, findings: ['hang: x'] }));
    expect(await mergeCli([a, bad, '--out', out], io().io)).toBe(1);
  });

  it.each([
    ['no certificate', ['--out', 'x.json'], /expected the certificate.json of each shard/],
    ['no --out', ['a.json'], /--out FILE is required/],
  ])('usage: %s', async (_, argv, message) => {
    await expect(mergeCli(argv, io().io)).rejects.toThrow(UsageError);
    await expect(mergeCli(argv, io().io)).rejects.toThrow(message);
  });

  it('an unreadable or malformed certificate, or mismatched shards: one line naming the file', async () => {
    const a = write('a2.json', shard(0, 2));
    const out = path.join(dir, 'o.json');
    await expect(mergeCli([a, path.join(dir, 'nope.json'), '--out', out], io().io)).rejects.toThrow(
      /nope\.json: not a readable JSON file/,
    );
    const broken = write('broken.json', { ...shard(1, 2), runs: 'ten' });
    await expect(mergeCli([a, broken, '--out', out], io().io)).rejects.toThrow(
      /broken\.json: not a valid certificate: runs: expected an integer >= 0, got "ten"/,
    );
    const other = write('other.json', shard(1, 2, { implementation: { spec: 'x', sha256: 'c'.repeat(64) } }));
    await expect(mergeCli([a, other, '--out', out], io().io)).rejects.toThrow(UsageError);
    expect(fs.existsSync(out)).toBe(false);
  });
});
