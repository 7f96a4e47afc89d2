import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { reportRoot, removeReportRoots } from './fixtures/process/job.ts';

// Answer counts per operation, as the certificate reports them: an implementation answering most releases indeterminate
// is certified through the CLI; the counts and their shares must be the same in the certificate,
// the one-screen summary, junit.xml and report.html, and the invariants its releases witness are
// said to be barely witnessed.

afterAll(() => removeReportRoots());

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/bad-impls/mostly-indeterminate-release-store.ts');

describe('answer counts', () => {
  it('most releases indeterminate: counts and shares in certificate, summary, junit and report; no-stale-release barely witnessed', async () => {
    const root = reportRoot();
    let stdout = '';
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } };
    const code = await main(
      [
        'certify',
        '--impl',
        `module:${FIXTURE}`,
        '--pattern',
        'lock',
        '--runs',
        '3',
        '--seed',
        '18',
        '--faults',
        'latency,lease-expiry',
        '--shrink-runs',
        '0',
        '--report',
        root,
      ],
      io,
    );
    expect([0, 1]).toContain(code); // judged, whichever way the evidence rule goes for 3 runs

    const [folder] = fs.readdirSync(root).filter((f) => fs.statSync(path.join(root, f)).isDirectory());
    const dir = path.join(root, folder);
    const certificate = JSON.parse(fs.readFileSync(path.join(dir, 'certificate.json'), 'utf8'));
    const release = certificate.evidence.operations.release;
    expect(release.issued).toBeGreaterThan(4);
    expect(release.ok + release.fail + release.info).toBe(release.issued);
    expect(release.info).toBeGreaterThan(release.issued / 2);
    expect(release.shares.info).toBeCloseTo(release.info / release.issued, 3);
    expect(release.shares.ok).toBeCloseTo(release.ok / release.issued, 3);
    const acquire = certificate.evidence.operations.acquire;
    expect(acquire.info).toBeLessThan(acquire.issued / 2); // latency alone leaves acquires mostly answered

    const pct = (n: number) => `${Math.round((n / release.issued) * 100)}%`;
    const answers = `release ${release.issued}: ${release.ok} ok (${pct(release.ok)}) · ${release.fail} fail (${pct(release.fail)}) · ${release.info} indeterminate (${pct(release.info)})`;
    const barely = `barely witnessed: ${release.info} of ${release.issued} release answers indeterminate (${pct(release.info)})`;
    const invariant = (name: string) => certificate.invariants.find((i: { invariant: string }) => i.invariant === name);
    expect(invariant('no-stale-release').barelyWitnessed).toBe(barely);
    expect(invariant('model-conformance').barelyWitnessed).toBe(barely);
    expect(invariant('one-holder').barelyWitnessed).toBeUndefined();

    expect(stdout).toContain(`    ${answers}\n`);
    expect(stdout).toMatch(new RegExp(`(ok  |FAIL) no-stale-release.*\\(${barely.replace(/[()]/g, '\\$&')}\\)`));
    expect(stdout).not.toMatch(/one-holder.*barely witnessed/);

    const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8'));
    expect(result.evidence.operations.release).toEqual(release);
    expect(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain(
      `<property name="answers.release" value="${answers}"/>`,
    );
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toContain(
      `release ${release.issued}: ${release.ok} (${pct(release.ok)}) · ${release.fail} (${pct(release.fail)}) · ${release.info} (${pct(release.info)})`,
    );
    expect(html).toContain(`(${barely})`);
  });
});
