import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectCertificateSchema } from './support/artifacts.ts';

// The CI gate end to end, through the CLI as the pipelines in examples/ci run it: two shards of one
// seed, merged; a baseline comparison. The reference lock with faults off, so
// every verdict below is decided by the code, not by timing (zero false alarms: no violation).

const ROOT = path.resolve(import.meta.dirname, '../..');
const bin = path.join(ROOT, 'bin/chaoslua.mjs');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-gate-e2e-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const corpus = path.join(work, 'corpus');

function chaoslua(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function certificateIn(report: string) {
  const [run] = fs.readdirSync(report);
  return path.join(report, run, 'certificate.json');
}

const lock = ['--impl', 'lua:lua/lock', '--pattern', 'lock', '--faults', 'none', '--seed', '4242', '--corpus', corpus];

describe('the CI gate, end to end', () => {
  it('two shards exit 0 with shard certificates; merge combines them into one verdict', { timeout: 900_000 }, () => {
    const certs = [0, 1].map((k) => {
      const report = path.join(work, `shard-${k}`);
      const r = chaoslua(['certify', ...lock, '--runs', '2', '--shard', `${k}/2`, '--report', report]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`shard ${k}/2 of seed 4242: evidence is judged when the shards are merged`));
      const c = JSON.parse(fs.readFileSync(certificateIn(report), 'utf8'));
      expectCertificateSchema(c);
      expect(c.shard).toEqual({
        index: k,
        count: 2,
        plan: 'runs 2; faults none; clients drawn; keys drawn; node-timeout 1000; settings lease=250 lease2=500',
      });
      expect(c.corpus).toEqual({ dir: corpus, entries: [], saved: [] });
      return certificateIn(report);
    });
    const out = path.join(work, 'merged', 'certificate.json');
    const m = chaoslua(['merge', ...certs, '--out', out, '--junit', path.join(work, 'merged', 'junit.xml')]);
    const merged = JSON.parse(fs.readFileSync(out, 'utf8'));
    expectCertificateSchema(merged);
    expect(merged.runs).toBe(4);
    expect(merged.merged.shards.map((s: { index: number }) => s.index)).toEqual([0, 1]);
    expect(merged.invariants.every((s: { passed: boolean }) => s.passed)).toBe(true);
    // Certified or not is the evidence of 4 runs without faults; the exit code says which, as certify's does.
    expect(m.code, m.stdout + m.stderr).toBe(merged.certified ? 0 : 1);
    expect(m.stdout).toMatch(merged.certified ? /^chaoslua merge: CERTIFIED/ : /^chaoslua merge: NOT CERTIFIED/);
  });

  it('--baseline: the same failures as an earlier certificate are no regression (exit 0, baseline.json written)', {
    timeout: 600_000,
  }, () => {
    // A baseline that failed one invariant and lacked evidence: the reference now passes that
    // invariant, and a shortfall of evidence is no new kind of finding.
    const shard0 = JSON.parse(fs.readFileSync(certificateIn(path.join(work, 'shard-0')), 'utf8'));
    const baseline = path.join(work, 'baseline.json');
    const invariants = shard0.invariants.map((s: { invariant: string }, i: number) =>
      i === 0 ? { ...s, passed: false, violations: [{ invariant: s.invariant, message: 'two holders' }] } : s,
    );
    fs.writeFileSync(
      baseline,
      JSON.stringify({
        ...shard0,
        shard: undefined,
        certified: false,
        invariants,
        findings: ['evidence: release succeeded 0 times'],
      }),
    );
    const report = path.join(work, 'baseline-run');
    const r = chaoslua(['certify', ...lock, '--runs', '1', '--baseline', baseline, '--report', report]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/baseline .*baseline\.json: no regression/);
    expect(r.stdout).toMatch(/changed: one-holder failed in the baseline and passes now/);
    const written = JSON.parse(
      fs.readFileSync(path.join(path.dirname(certificateIn(report)), 'baseline.json'), 'utf8'),
    );
    expect(written.regressed).toBe(false);
  });
});
