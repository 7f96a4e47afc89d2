import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src/certify/baseline.ts';
import { readBaseline, reportBaseline } from '../../../src/cli/baseline.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import type { Certificate } from '../../../src/report/certificate.ts';

// `certify --baseline`: fail on a regression against an earlier certificate, say what changed.

type Inv = Certificate['invariants'][number];
const inv = (invariant: string, passed: boolean): Inv => ({
  invariant,
  passed,
  violations: passed ? [] : [{ invariant, message: `${invariant} broken on key k0\n  witness: ...` }],
});

function cert(invariants: [string, boolean][], over: Partial<Certificate> = {}): Certificate {
  return {
    version: 1,
    certified: invariants.every(([, p]) => p) && (over.findings ?? []).length === 0,
    pattern: 'idempotency',
    implementation: { spec: 'lua:/x', sha256: 'a'.repeat(64) },
    redis: { version: '7', topology: '', cluster: 'local' },
    seed: 1,
    runs: 40,
    operations: 1000,
    faults: {},
    invariants: invariants.map(([n, p]) => inv(n, p)),
    findings: [],
    replicationLosses: 0,
    issuedAt: '2026-12-01T00:00:00Z',
    seconds: 100,
    ...over,
  };
}

const ALL = ['one-winner', 'no-stale-overwrite', 'no-resurrection', 'model-conformance'];
const withFailing = (...failing: string[]) => ALL.map((n) => [n, !failing.includes(n)] as [string, boolean]);

describe('comparing with a baseline', () => {
  it('an invariant that passed before and fails now is a regression, named with its violation', () => {
    const c = compareWithBaseline(
      cert(withFailing('no-resurrection')),
      cert(withFailing('no-resurrection', 'one-winner')),
    );
    expect(c.regressions).toEqual(['one-winner passed in the baseline and fails now: one-winner broken on key k0']);
    expect(c.changes).toEqual(['no-resurrection still fails, as in the baseline']);
  });

  it('the same failures as the baseline are no regression; a fix is reported as a change', () => {
    expect(
      compareWithBaseline(cert(withFailing('no-resurrection')), cert(withFailing('no-resurrection'))).regressions,
    ).toEqual([]);
    const fixed = compareWithBaseline(cert(withFailing('no-resurrection')), cert(withFailing()));
    expect(fixed.regressions).toEqual([]);
    expect(fixed.changes).toEqual([
      'no-resurrection failed in the baseline and passes now',
      'certified now; the baseline was not',
    ]);
  });

  it('a certified baseline that is not certified now, or a new kind of finding, is a regression', () => {
    const evidence = compareWithBaseline(
      cert(withFailing()),
      cert(withFailing(), { certified: false, findings: ['evidence: renew succeeded 2 times of 90'] }),
    );
    expect(evidence.regressions).toEqual(['new finding: evidence: renew succeeded 2 times of 90']);
    const quiet = compareWithBaseline(cert(withFailing()), cert(withFailing(), { certified: false }));
    expect(quiet.regressions).toEqual(['the baseline was certified and this run is not']);
    // The same kind of finding with other numbers is not new.
    const same = compareWithBaseline(
      cert(withFailing(), { findings: ['hang: a call unanswered'] }),
      cert(withFailing(), { findings: ['hang: another call unanswered'] }),
    );
    expect(same.regressions).toEqual([]);
    expect(compareWithBaseline(cert(withFailing(), { findings: ['hang: x'] }), cert(withFailing())).changes).toEqual([
      'finding gone: hang: x',
      'certified now; the baseline was not',
    ]);
  });

  it('says what else moved: replication losses, duplicate effects, the implementation', () => {
    const before = cert(withFailing(), { replicationLosses: 1, ...({ duplicateEffects: 0 } as object) });
    const after = cert(withFailing(), {
      replicationLosses: 3,
      implementation: { spec: 'lua:/x', sha256: 'b'.repeat(64) },
      ...({ duplicateEffects: 2 } as object),
    });
    expect(compareWithBaseline(before, after)).toEqual({
      regressions: [],
      changes: [
        'replicationLosses: 1 in the baseline (40 runs), 3 now (40 runs)',
        'duplicateEffects: 0 in the baseline (40 runs), 2 now (40 runs)',
        'implementation changed: sha256 aaaaaaaaaaaa -> bbbbbbbbbbbb',
      ],
    });
  });

  it('says when the settings differ (another window draws other schedules), and nothing when they agree', () => {
    const limiter = (window: number) =>
      cert([['limit-respected', true]], { pattern: 'ratelimit', settings: { limit: 3, window } });
    expect(compareWithBaseline(limiter(1), limiter(3))).toEqual({
      regressions: [],
      changes: ['settings: limit=3 window=1 in the baseline, limit=3 window=3 now'],
    });
    expect(compareWithBaseline(limiter(3), limiter(3)).changes).toEqual([]);
  });
});

describe('certify --baseline FILE', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-baseline-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };

  it('refuses, before any cluster, a file that is not a certificate or is of another pattern', () => {
    expect(() => readBaseline('certify', path.join(dir, 'none.json'), 'idempotency')).toThrow(
      /--baseline .*none\.json: not a readable JSON file/,
    );
    expect(() => readBaseline('certify', write('text.json', 'not json'), 'idempotency')).toThrow(UsageError);
    expect(() =>
      readBaseline(
        'certify',
        write('partial.json', { ...cert(withFailing()), invariants: [{ invariant: 'x' }] }),
        'idempotency',
      ),
    ).toThrow(/invariants\[0\]\.passed: expected a boolean, got nothing/);
    expect(() =>
      readBaseline('certify', write('lock.json', cert(withFailing(), { pattern: 'lock' })), 'idempotency'),
    ).toThrow(/certifies lock, this run --pattern idempotency/);
    expect(readBaseline('certify', write('ok.json', cert(withFailing())), 'idempotency').certificate.certified).toBe(
      true,
    );
  });

  it('exit 1 on a regression, 0 otherwise (even when not certified), with baseline.json written beside the certificate', () => {
    const baseline = readBaseline('certify', write('b.json', cert(withFailing('no-resurrection'))), 'idempotency');
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } };
    const run = fs.mkdtempSync(path.join(dir, 'run-'));
    expect(reportBaseline(baseline, cert(withFailing('no-resurrection')), run, false, io)).toBe(0);
    expect(out.join('')).toMatch(/baseline .*b\.json: no regression/);
    expect(reportBaseline(baseline, cert(withFailing('no-resurrection', 'one-winner')), run, false, io)).toBe(1);
    expect(out.join('')).toMatch(/REGRESSION one-winner passed in the baseline and fails now/);
    expect(JSON.parse(fs.readFileSync(path.join(run, 'baseline.json'), 'utf8'))).toMatchObject({
      regressed: true,
      regressions: [expect.stringMatching(/^one-winner/)],
    });
  });
});
