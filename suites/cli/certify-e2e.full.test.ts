import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectCertificateSchema, readJunit } from './support/artifacts.ts';

// `chaoslua certify` end to end, as CI runs it: the exit code, certificate.json (schema and
// content) and junit.xml, for a certified implementation, one that is not, one lint rejects
// before any cluster starts, and one Redis refuses to load.

const ROOT = path.resolve(import.meta.dirname, '../..');
const bin = path.join(ROOT, 'bin/chaoslua.mjs');
const BAD = path.join(ROOT, 'suites/certify/fixtures/bad-impls');
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function certify(args: string[]) {
  const report = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-e2e-'));
  roots.push(report);
  // A corpus of its own: the default (beside the implementation) would carry one run's counterexample into the next.
  const corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-e2e-corpus-'));
  roots.push(corpus);
  const r = spawnSync(process.execPath, [bin, 'certify', ...args, '--report', report, '--corpus', corpus], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
  });
  const [run] = fs.readdirSync(report).filter((d) => fs.statSync(path.join(report, d)).isDirectory());
  const dir = path.join(report, run);
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    dir,
    certificate: JSON.parse(read('certificate.json')),
    junit: readJunit(read('junit.xml')),
  };
}

describe('chaoslua certify, end to end', () => {
  // CERTIFIED_RUNS: see docs/certificate.md (per-run witness rates of the lock's transitions).
  it('a correct implementation: exit 0, a certificate that says what was exercised, every JUnit case passing', {
    timeout: 600_000,
  }, () => {
    const runs = 20;
    const r = certify(['--impl', 'lua:lua/lock', '--pattern', 'lock', '--runs', String(runs), '--seed', '20261201']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^chaoslua certify: PASSED — lock/);
    const c = r.certificate;
    expectCertificateSchema(c);
    expect(c.certified).toBe(true);
    expect(c.runs).toBe(runs);
    expect(c.seed).toBe(20261201);
    expect(c.operations).toBeGreaterThan(0);
    expect(c.evidence.missing).toEqual([]);
    for (const o of Object.values(c.evidence.operations) as { ok: number }[])
      expect(o.ok).toBeGreaterThanOrEqual(c.evidence.minOkPerOperation);
    expect(Object.values(c.evidence.transitions).every((n) => (n as number) > 0)).toBe(true);
    expect(r.junit.suite).toBe('chaoslua certify lock');
    expect(r.junit.cases).toEqual(['one-holder', 'no-stale-release', 'model-conformance'].map((name) => ({ name })));
  });

  it('an implementation that only answers errors: exit 1, not certified, the missing evidence named', {
    timeout: 300_000,
  }, () => {
    const r = certify([
      '--impl',
      `lua:${BAD}/errors-only-lua/idempotency`,
      '--runs',
      '2',
      '--faults',
      'none',
      '--seed',
      '3',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^chaoslua certify: FAILED — idempotency/);
    expect(r.stdout).toMatch(/FAIL implementation: evidence: no operation succeeded: 0 of \d+ ok/);
    const c = r.certificate;
    expectCertificateSchema(c);
    expect(c.certified).toBe(false);
    expect(c.runs).toBe(2);
    expect(c.evidence.missing).toEqual([`no operation succeeded: 0 of ${c.operations} ok`]);
    expect(c.invariants.every((i: { passed: boolean }) => i.passed)).toBe(true);
    expect(r.junit.cases.filter((k) => k.failure)).toEqual([
      { name: 'evidence', failure: expect.stringMatching(/^evidence: no operation succeeded/) },
    ]);
  });

  it('scripts lint rejects: exit 1 before any cluster starts, with a certificate and a JUnit case per finding', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-e2e-lint-'));
    roots.push(dir);
    for (const name of ['register_or_get', 'complete', 'release', 'renew'])
      fs.copyFileSync(path.join(ROOT, 'lua/idempotency', `${name}.lua`), path.join(dir, `${name}.lua`));
    fs.writeFileSync(
      path.join(dir, 'release.lua'),
      "-- KEYS[1] = key\nreturn redis.call('DEL', 'other:' .. KEYS[1])\n",
    );
    const r = certify(['--impl', `lua:${dir}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/static checks found 1 defect\(s\) before any run/);
    const c = r.certificate;
    expectCertificateSchema(c);
    expect(c.certified).toBe(false);
    expect(c.redis.version).toBe('not started');
    expect(c.runs).toBe(0);
    expect(c.findings).toEqual([expect.stringMatching(/^lint: .*release\.lua:2:\d+ undeclared-key /)]);
    expect(r.junit.cases).toEqual([
      { name: 'lint', failure: expect.stringMatching(/release\.lua:2:\d+ undeclared-key/) },
    ]);
  });

  it('lint advice does not refuse: a semaphore reading TIME without waivers runs, the advice on its certificate', {
    timeout: 300_000,
  }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-e2e-advice-'));
    roots.push(dir);
    for (const name of ['acquire', 'release', 'refresh']) {
      const source = fs.readFileSync(path.join(ROOT, 'lua/semaphore', `${name}.lua`), 'utf8');
      fs.writeFileSync(
        path.join(dir, `${name}.lua`),
        source
          .split('\n')
          .filter((l) => !l.includes('chaoslua-lint:'))
          .join('\n'),
      );
    }
    const r = certify(['--impl', `lua:${dir}`, '--pattern', 'semaphore', '--runs', '2', '--faults', 'none']);
    expect(r.certificate.runs, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toMatch(/lint advice \(3, not a refusal\):/);
    expect(r.certificate.findings.filter((f: string) => f.startsWith('lint:'))).toEqual([]);
    expect(r.certificate.lintAdvice).toEqual(
      ['acquire', 'refresh', 'release'].map((n) =>
        expect.stringMatching(new RegExp(`${n}\\.lua:\\d+:\\d+ nondeterminism \\(advice\\) TIME`)),
      ),
    );
  });

  it("a script Redis refuses (--no-lint): exit 1 with Redis's message, a certificate and junit.xml", {
    timeout: 300_000,
  }, () => {
    const r = certify(['--impl', `lua:${BAD}/refused-lua`, '--no-lint', '--runs', '2', '--faults', 'none']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    const c = r.certificate;
    expectCertificateSchema(c);
    expect(c.certified).toBe(false);
    expect(c.findings).toEqual([
      expect.stringMatching(/^script-load: could not load .*renew\.lua on .*ERR Error compiling script/),
    ]);
    expect(r.junit.cases.filter((k) => k.failure)).toEqual([
      { name: 'implementation-behaviour', failure: expect.stringMatching(/^script-load: /) },
    ]);
  });
});
