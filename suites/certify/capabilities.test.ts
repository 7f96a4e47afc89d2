import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { summaryText } from '../../src/certify/summary.ts';
import { certificate } from '../../src/cli/certify.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { parseImplSpec } from '../../src/impl/impl-spec.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { check } from '../../src/checker/index.ts';
import { runJudged } from '../../src/certify/replay.ts';
import type { Subject } from '../../src/subject/types.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// Capabilities and answer levels (what an implementation declares it answers) on the real cluster: a correct module answering at the
// boolean level with its own holder handles passes every invariant, and one that declares less
// (no extend, a release that answers nothing) has the invariant it cannot witness reported
// not-applicable, never passed. The boolean-level mutants are in the catalogue (mutants.test.ts);
// the full budget certification of the coarse reference is capabilities.full.test.ts.

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/coarse');

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});
afterAll(() => removeReportRoots());

// Short jobs (latency only; every fault is capabilities.full.test.ts's, at the default budget).
const flags = { pattern: 'lock', seed: '12', faults: 'latency', 'shrink-runs': '0' } as const;
const job = (file: string, runs: number) =>
  runJob(
    certifyOptions({ ...flags, runs: String(runs) }),
    moduleOpener(PATTERNS.lock, path.join(FIXTURES, file)),
    quietIo,
    cluster,
  );

describe('a module declaring capabilities', () => {
  it('answering booleans with its own random lock values, handed back as handles: every invariant holds, releases included', async () => {
    const result = await job('lock-handles-store.ts', 2);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.map((s) => [s.invariant, s.passed, s.notApplicable])).toEqual([
      ['one-holder', true, undefined],
      ['no-stale-release', true, undefined],
      ['model-conformance', true, undefined],
    ]);
    // A release can only answer true with the handle its acquire handed out: these were judged against the model.
    expect(result.evidence.transitions['held → absent by release']).toBeGreaterThan(0);
    expect(result.evidence.transitions['held → held by extend']).toBeGreaterThan(0);
    const cert = certificate(
      certifyOptions({ ...flags, runs: '2' }),
      parseImplSpec(`module:${path.join(FIXTURES, 'lock-handles-store.ts')}`, PATTERNS.lock),
      result,
    );
    expect(cert.capabilities).toEqual({ acquire: 'boolean+handle', release: 'boolean', extend: 'boolean' });
  });

  it('without extend and with a void release: no extend drawn, no-stale-release not applicable in the result, summary and JUnit', async () => {
    const result = await job('lock-void-release-store.ts', 1);
    expect(behaviourFindings(result)).toEqual([]);
    const stale = result.invariants.find((s) => s.invariant === 'no-stale-release')!;
    expect(stale.passed).toBe(false);
    expect(stale.notApplicable).toMatch(
      /^not-applicable: only release, extend can witness it, and the implementation declares release at level void, extend not supported$/,
    );
    expect(
      result.invariants.filter((s) => s.invariant !== 'no-stale-release').every((s) => s.passed && !s.notApplicable),
    ).toBe(true);
    expect(result.evidence.operations.map((o) => o.op)).toEqual(['acquire', 'release']);
    expect(Object.keys(result.evidence.transitions)).not.toContain('held → held by extend');
    expect(result.evidence.operations[1].ok).toBeGreaterThan(0);
    const junit = fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase [^>]*name="no-stale-release"[^>]*>\n\s*<skipped message="not-applicable: /);
    expect(junit).toContain('failures="0"');
    const summary = summaryText(certifyOptions({ ...flags, runs: '1' }), result);
    expect(summary).toContain('  capabilities: acquire boolean, release void, extend not supported\n');
    expect(summary).toContain('  n/a  no-stale-release: not-applicable: ');
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).capabilities).toEqual({
      acquire: 'boolean',
      release: 'void',
    });
  });
});

// Semantic variants on the real cluster: a semaphore module whose acquire counts first (as
// redis-semaphore's does) and declares reacquire: 'counts' is judged by that promise; the same
// answers judged by the default promise (a holder's acquire renews it whatever the count) are not.
describe('a module declaring a semantic variant', () => {
  const file = path.join(import.meta.dirname, 'fixtures/variants/semaphore-counts-store.ts');

  it('a holder acquiring again on a full set: refused, recorded with the variant, legal by the promise declared and illegal by the default', async () => {
    const opened = await moduleOpener(PATTERNS.semaphore, file)(cluster, 1);
    try {
      const acquire = (token: string) => ({
        type: 'op' as const,
        key: 0,
        input: { op: 'acquire', token, limit: 2, ttlMs: 5_000 },
      });
      const schedule = {
        pattern: 'semaphore',
        keys: 1,
        clients: [
          [
            acquire('a'),
            acquire('b'),
            acquire('b'),
            { type: 'op' as const, key: 0, input: { op: 'release', token: 'b' } },
          ],
        ],
        faults: [],
      };
      // Through the one replay path (src/certify/replay.ts), which records each input as its subject declared it.
      const run = async (subjects: readonly Subject[]) =>
        (
          await runJudged(
            schedule,
            { cluster, subjects, pattern: PATTERNS.semaphore, nodeTimeoutMs: 1_000 },
            `variant-${randomBytes(4).toString('hex')}`,
          )
        ).run;
      const declared = await run(opened.subjects);
      expect(declared.history.ops.map((o) => [o.input, o.outcome, o.output])).toEqual([
        [
          { op: 'acquire', token: 'a', limit: 2, ttlMs: 5_000, reacquire: 'counts' },
          'ok',
          { level: 'boolean', op: 'acquire', answer: true },
        ],
        [
          { op: 'acquire', token: 'b', limit: 2, ttlMs: 5_000, reacquire: 'counts' },
          'ok',
          { level: 'boolean', op: 'acquire', answer: true },
        ],
        [
          { op: 'acquire', token: 'b', limit: 2, ttlMs: 5_000, reacquire: 'counts' },
          'ok',
          { level: 'boolean', op: 'acquire', answer: false },
        ],
        [{ op: 'release', token: 'b' }, 'ok', { level: 'boolean', op: 'release', answer: true }],
      ]);
      expect(check(declared.history, PATTERNS.semaphore).verdict).toBe('ok');
      // The same implementation, its declaration left out: judged by the default, its refusal is a violation.
      const undeclared = opened.subjects.map((s) => ({
        ...s,
        capabilities: { ...s.capabilities!, variants: undefined },
      }));
      const byDefault = await run(undeclared);
      expect(byDefault.history.ops.map((o) => (o.input as { reacquire?: string }).reacquire)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      const judged = check(byDefault.history, PATTERNS.semaphore);
      expect(judged.verdict).toBe('illegal');
      expect(judged.violations.map((v) => v.invariant)).toEqual(['model-conformance']);
    } finally {
      await opened.close();
    }
  });
});
