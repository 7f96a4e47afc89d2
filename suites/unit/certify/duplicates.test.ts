/**
 * Duplicate effects over a job: per operation, with the findings the pattern declares (a ratelimit
 * hit counted twice is one; a register resent by the same attempt is not), summed by merge,
 * compared by baseline, and marked on the report's timeline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src/certify/baseline.ts';
import {
  duplicateCounts,
  duplicateFindings,
  duplicatesLine,
  tallyDuplicates,
} from '../../../src/certify/duplicates.ts';
import { mergeCertificates } from '../../../src/certify/merge.ts';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord } from '../../../src/history/types.ts';
import { PATTERN_NAMES, PATTERNS, type AnyPattern } from '../../../src/patterns/index.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import type { RateLimitInput, RateLimitOutput } from '../../../src/patterns/ratelimit/model.ts';
import type { Certificate } from '../../../src/report/certificate.ts';
import type { Counterexample } from '../../../src/report/counterexample.ts';
import type { RunSummary } from '../../../src/report/html/data.ts';
import { renderReport } from '../../../src/report/html/page.ts';
import { fault, history, op } from '../checker/support/ops.ts';

const cut = (startedAt: number, endedAt: number): FaultRecord => ({
  ...fault('reply-loss', startedAt, endedAt, false),
  cutsConnections: true,
});
const hit = (client: number, limit: number, at: [number, number], output: RateLimitOutput) =>
  op<RateLimitInput, RateLimitOutput>(client, { op: 'hit', limit, windowSeconds: 60 }, at[0], at[1], { output });

describe('Pattern.duplicates', () => {
  it('declares only operations of its own pattern, each finding named duplicate-<op>', () => {
    for (const name of PATTERN_NAMES) {
      const pattern = PATTERNS[name] as AnyPattern;
      for (const [op, declaration] of Object.entries(pattern.duplicates ?? {})) {
        expect(Object.keys(pattern.operations), `${name}.duplicates.${op}`).toContain(op);
        expect(declaration.consequence.length, `${name}.duplicates.${op}.consequence`).toBeGreaterThan(0);
        if (declaration.finding !== undefined) expect(declaration.finding).toBe(`duplicate-${op}`);
      }
    }
    expect(PATTERNS.ratelimit.duplicates?.hit.finding).toBe('duplicate-hit');
    expect(PATTERNS.idempotency.duplicates?.register).toBeDefined();
    expect(PATTERNS.idempotency.duplicates?.register?.finding).toBeUndefined();
  });

  it('a duplicate the pattern marks a violation is a failing finding', () => {
    const declared = PATTERNS.ratelimit.duplicates?.hit as { violation?: true };
    const tally = { hit: { count: 1, ops: [{ run: 1, id: 5 }] } };
    try {
      declared.violation = true;
      expect(duplicateFindings(PATTERNS.ratelimit, tally)[0].violation).toBe(true);
    } finally {
      delete declared.violation;
    }
    expect(duplicateFindings(PATTERNS.ratelimit, tally)[0].violation).toBe(false);
  });
});

describe('a ratelimit job', () => {
  it("raises duplicate-hit when a cut hit's second execution is needed to explain the counter", () => {
    const doubled = hit(1, 2, [0, 50], 1);
    const result = check(history([doubled, hit(2, 2, [60, 70], 0)], [cut(10, 20)]), PATTERNS.ratelimit);
    const tally = tallyDuplicates(PATTERNS.ratelimit, [{ run: 3, effects: result.duplicateEffects! }]);
    expect(tally).toEqual({ hit: { count: 1, ops: [{ run: 3, id: doubled.id }] } });
    const findings = duplicateFindings(PATTERNS.ratelimit, tally);
    expect(findings).toHaveLength(1);
    expect(findings[0].text).toMatch(
      new RegExp(
        `^duplicate-hit: 1 hit only a second execution explains \\(run 3: op ${doubled.id}\\): the client was charged twice`,
      ),
    );
    // Over-counting against the client is safe for a limiter: reported, not a violation.
    expect(findings[0].violation).toBe(false);
    expect(duplicatesLine(tally)).toBe('  duplicate effects (operations only a second execution explains): hit 1');
  });

  it('reports 0 and no finding when the second execution is not needed', () => {
    const result = check(history([hit(1, 3, [0, 50], 1), hit(2, 3, [60, 70], 1)], [cut(10, 20)]), PATTERNS.ratelimit);
    const tally = tallyDuplicates(PATTERNS.ratelimit, [{ run: 1, effects: result.duplicateEffects! }]);
    expect(duplicateCounts(tally)).toEqual({ hit: 0 });
    expect(duplicateFindings(PATTERNS.ratelimit, tally)).toEqual([]);
  });
});

describe('an idempotency job', () => {
  it('counts a register resent by the same attempt, and declares it no finding', () => {
    const own = op<IdempotencyInput, IdempotencyOutput>(
      1,
      { op: 'register', fingerprint: 'fp', owner: 'A', leaseMs: 60_000 },
      0,
      50,
      { output: ['hit', 'pending', 'fp', '', ''] },
    );
    const result = check(history([own], [cut(10, 20)]), PATTERNS.idempotency);
    const tally = tallyDuplicates(PATTERNS.idempotency, [{ run: 1, effects: result.duplicateEffects! }]);
    expect(duplicateCounts(tally)).toEqual({ register: 1, complete: 0, release: 0, renew: 0 });
    expect(PATTERNS.idempotency.duplicates?.register.consequence).toMatch(/same attempt/);
    expect(duplicateFindings(PATTERNS.idempotency, tally)).toEqual([]);
  });
});

describe('certificates', () => {
  const shard = (index: number, hits: number): Certificate => ({
    version: 1,
    certified: true,
    pattern: 'ratelimit',
    implementation: { spec: 'lua:/x', sha256: 'a'.repeat(64) },
    redis: { version: '7.0.15', topology: '', cluster: 'local' },
    seed: 1,
    runs: 5,
    operations: 50,
    faults: {},
    invariants: [],
    findings: [],
    replicationLosses: 0,
    duplicateEffects: { hit: hits },
    duplicateFindings: hits
      ? [`duplicate-hit: ${hits} hits only a second execution explains (run 2: op 7): charged twice`]
      : [],
    issuedAt: '2026-12-01T00:00:00.000Z',
    seconds: 10,
    shard: { index, count: 2 },
  });

  it("merge sums duplicate effects and lists each shard's findings", () => {
    const merged = mergeCertificates([
      { file: 'a.json', certificate: shard(0, 2) },
      { file: 'b.json', certificate: shard(1, 3) },
    ]);
    expect(merged.duplicateEffects).toEqual({ hit: 5 });
    expect(merged.duplicateFindings).toEqual([
      'shard 0/2: duplicate-hit: 2 hits only a second execution explains (run 2: op 7): charged twice',
      'shard 1/2: duplicate-hit: 3 hits only a second execution explains (run 2: op 7): charged twice',
    ]);
    // Reported, not failing: the merged certificate stays certified (the evidence aside).
    expect(merged.findings.filter((f) => f.includes('duplicate'))).toEqual([]);
  });

  it("baseline says which operation's count moved", () => {
    const changes = compareWithBaseline(shard(0, 0), shard(0, 4)).changes;
    expect(changes).toContain('duplicateEffects.hit: 0 in the baseline (5 runs), 4 now (5 runs)');
  });
});

describe('the report page', () => {
  const FIXTURES = new URL('../../report/fixtures/', import.meta.url).pathname;
  const FAILING = '20261130-081012-run-7';
  const read = (file: string) => fs.readFileSync(path.join(FIXTURES, FAILING, file), 'utf8');

  it('marks on the timeline the ops only a second execution explains, and lists the tally and findings', () => {
    const ce = JSON.parse(read('counterexample.json')) as Counterexample;
    const twice = ce.history.ops[0];
    const result = JSON.parse(read('result.json')) as RunSummary;
    const data = {
      dir: `reports/${FAILING}`,
      result: {
        ...result,
        duplicateEffects: { register: { count: 1, ops: [{ run: 2, id: twice.id }] } },
        duplicateFindings: ['duplicate-register: a planted sentence'],
      },
      counterexample: { ...ce, result: { ...ce.result, duplicateEffects: { register: [twice.id] } } },
    };
    const html = renderReport(data);
    expect(html).toMatch(new RegExp(`class="op [a-z ]*twice[a-z ]*" data-op-id="${twice.id}"`));
    expect(html.match(/class="mark twice-mark/g)).toHaveLength(1);
    expect(html).toContain('ran twice (only a second execution explains it)');
    expect(html).toContain(`register 1 (run 2: op ${twice.id})`);
    expect(html).toContain('duplicate-register: a planted sentence');
    // Without duplicates nothing is marked.
    expect(renderReport({ ...data, counterexample: ce })).not.toContain('class="mark twice-mark');
  });
});
