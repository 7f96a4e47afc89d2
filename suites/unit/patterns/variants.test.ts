// Semantic variants (src/patterns/variants.ts): a pattern offers choices where real libraries differ
// by design (a semaphore holder acquiring again: renewed, or counted), an implementation declares
// one next to its levels, the runner records it in every input that carries it (only when it is not
// the default, so every other history reads as before), the model steps by it, and the certificate,
// result, JUnit file and summary say which promise the verdict is about.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import { runJob } from '../../../src/certify/job.ts';
import { summaryText } from '../../../src/certify/summary.ts';
import { certificate } from '../../../src/cli/certify.ts';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import { models } from '../../../src/patterns/models.ts';
import { parseCapabilities, type Capabilities } from '../../../src/patterns/capabilities.ts';
import { PATTERNS, type AnyPattern } from '../../../src/patterns/index.ts';
import { withVariants } from '../../../src/patterns/variants.ts';
import { COUNTEREXAMPLE_VERSION } from '../../../src/report/counterexample.ts';
import { validateCounterexample } from '../../../src/report/counterexample-schema.ts';
import { runJudged } from '../../../src/certify/replay.ts';
import { moduleDeclarations } from '../../../src/impl/module-subject.ts';
import type { Subject } from '../../../src/subject/types.ts';
import { inMemorySubjects, StubCluster } from '../runner/stub-cluster.ts';

const semaphore = PATTERNS.semaphore;
const LEVELS = { acquire: 'boolean', release: 'boolean', refresh: 'boolean' };
const countsCaps = parseCapabilities(semaphore, { ...LEVELS, variants: { reacquire: 'counts' } }, 'caps');

describe('declaring a semantic variant', () => {
  it('is parsed next to the levels: the choice kept, the operations as before', () => {
    expect(countsCaps.variants).toEqual({ reacquire: 'counts' });
    expect(Object.keys(countsCaps.operations)).toEqual(['acquire', 'release', 'refresh']);
    expect(parseCapabilities(semaphore, LEVELS, 'caps').variants).toBeUndefined();
    expect(parseCapabilities(semaphore, { ...LEVELS, variants: {} }, 'caps').variants).toBeUndefined();
  });

  it('a variant or a choice the pattern does not have: one line naming it and the choices', () => {
    const error = (declared: unknown, pattern: AnyPattern = semaphore) => {
      try {
        parseCapabilities(pattern, declared, 'caps');
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(error({ ...LEVELS, variants: { reacquire: 'refuses' } })).toBe(
      'caps.variants.reacquire: unknown choice "refuses" (reacquire is one of renews, counts; default renews)',
    );
    expect(error({ ...LEVELS, variants: { reentrant: 'yes' } })).toBe(
      'caps.variants: unknown variant "reentrant" (a semaphore implementation may declare reacquire (renews | counts))',
    );
    expect(error({ acquire: 'boolean', variants: { reacquire: 'counts' } }, PATTERNS.lock)).toBe(
      'caps.variants: unknown variant "reacquire" (lock has no semantic variants)',
    );
    expect(error({ ...LEVELS, variants: 'counts' })).toBe(
      'caps.variants: expected an object of variant -> choice, got "counts"',
    );
    expect(error({ variants: { reacquire: 'counts' } })).toMatch(/^caps: supports no operation/);
    for (const message of [
      error({ ...LEVELS, variants: { reacquire: 'refuses' } }),
      error({ ...LEVELS, variants: { reentrant: 'yes' } }),
    ])
      expect(message).not.toContain('\n');
  });

  it('in a module, a mistake is a usage error naming the module', () => {
    const factory = () => ({});
    expect(
      moduleDeclarations(
        { factory, capabilities: { semaphore: { ...LEVELS, variants: { reacquire: 'counts' } } } },
        'm.mjs',
        PATTERNS.semaphore,
      ).capabilities.variants,
    ).toEqual({ reacquire: 'counts' });
    expect(() =>
      moduleDeclarations(
        { factory, capabilities: { semaphore: { ...LEVELS, variants: { reacquire: 'count' } } } },
        'm.mjs',
        PATTERNS.semaphore,
      ),
    ).toThrow(
      /^--impl module:m\.mjs: capabilities\.semaphore\.variants\.reacquire: unknown choice "count" \(reacquire is one of renews, counts; default renews\)$/,
    );
  });
});

describe('the recorded input', () => {
  const acquire = { op: 'acquire', token: 't', limit: 2, ttlMs: 100 };

  it('carries a declared choice other than the default, on the operations that carry the variant only', () => {
    expect(withVariants(semaphore, countsCaps, acquire)).toEqual({ ...acquire, reacquire: 'counts' });
    const release = { op: 'release', token: 't' };
    expect(withVariants(semaphore, countsCaps, release)).toBe(release);
  });

  it('is the very same input for the default, declared or not, and for a pattern without variants', () => {
    const renews = parseCapabilities(semaphore, { ...LEVELS, variants: { reacquire: 'renews' } }, 'caps');
    expect(withVariants(semaphore, renews, acquire)).toBe(acquire);
    expect(withVariants(semaphore, parseCapabilities(semaphore, LEVELS, 'caps'), acquire)).toBe(acquire);
    expect(withVariants(semaphore, undefined, acquire)).toBe(acquire);
    const lockAcquire = { op: 'acquire', token: 't', ttlMs: 100 };
    expect(withVariants(PATTERNS.lock, countsCaps, lockAcquire)).toBe(lockAcquire);
  });

  it('a counterexample file may hold a choice of the variant, and nothing else in its place', () => {
    const file = (input: Record<string, unknown>) => ({
      version: COUNTEREXAMPLE_VERSION,
      pattern: 'semaphore',
      impl: 'm',
      seed: 1,
      options: {},
      schedule: { pattern: 'semaphore', keys: 1, clients: [[{ type: 'op', key: 0, input }]], faults: [] },
      history: {
        ops: [
          { type: 'op', id: 0, client: 0, key: 'k', input, invokedAt: 0, completedAt: 1, outcome: 'ok', output: 1 },
        ],
        faults: [],
        topology: [],
      },
      result: { verdict: 'ok', violations: [], keys: [] },
    });
    expect(() =>
      validateCounterexample(file({ ...acquire, reacquire: 'counts' }), COUNTEREXAMPLE_VERSION),
    ).not.toThrow();
    expect(() => validateCounterexample(file(acquire), COUNTEREXAMPLE_VERSION)).not.toThrow();
    expect(() => validateCounterexample(file({ ...acquire, reacquire: 'sometimes' }), COUNTEREXAMPLE_VERSION)).toThrow(
      'schedule.clients[0][0].input.reacquire: expected one of renews, counts, got "sometimes"',
    );
  });
});

/**
 * An in-process semaphore whose acquire counts first (redis-semaphore's rule): a holder on a full
 * set is refused and not renewed. Deadlines are not kept: the schedules here finish long before any.
 */
function countingSubjects(capabilities: Capabilities | undefined, count: number): Subject[] {
  const holders = new Map<string, Set<string>>();
  const subject: Subject = {
    name: 'in-memory counting semaphore',
    ...(capabilities ? { capabilities } : {}),
    async invoke(key, input) {
      const i = input as { op: string; token: string; limit?: number };
      const set = holders.get(key) ?? new Set<string>();
      holders.set(key, set);
      if (i.op === 'release') return set.delete(i.token) ? 1 : 0;
      if (i.op === 'refresh') return set.has(i.token) ? 1 : 0;
      if (set.size >= i.limit!) return 0;
      set.add(i.token);
      return 1;
    },
    async close() {},
  };
  return Array.from({ length: count }, () => subject);
}

describe('judged by the promise declared (a runner on a stub cluster, the checker)', () => {
  const step = (input: Record<string, unknown>) => ({ type: 'op' as const, key: 0, input });
  const acquire = (token: string) => step({ op: 'acquire', token, limit: 2, ttlMs: 60_000 });
  // Two holders fill the set; the second acquires again, then releases.
  const schedule = {
    pattern: 'semaphore',
    keys: 1,
    clients: [[acquire('a'), acquire('b'), acquire('b'), step({ op: 'release', token: 'b' })]],
    faults: [],
  };
  // Through the one replay path (src/certify/replay.ts): it records each input as the subject declared it.
  const run = async (subjects: Subject[]) =>
    (
      await runJudged(
        schedule,
        {
          cluster: new StubCluster().asCluster(),
          subjects,
          pattern: PATTERNS.semaphore,
          nodeTimeoutMs: 1_000,
          opTimeoutMs: 1_000,
        },
        'variants',
      )
    ).run;
  const exact = parseCapabilities(
    semaphore,
    { acquire: 'exact', release: 'exact', refresh: 'exact', variants: { reacquire: 'counts' } },
    'caps',
  );

  it('declared counts: every acquire records the choice, and the refusal of the holder is legal', async () => {
    const { history } = await run(countingSubjects(exact, 1));
    expect(history.ops.map((o) => [(o.input as { reacquire?: string }).reacquire, o.output])).toEqual([
      ['counts', 1],
      ['counts', 1],
      ['counts', 0],
      [undefined, 1],
    ]);
    expect(check(history, PATTERNS.semaphore).verdict).toBe('ok');
  });

  it('undeclared: the same answers judged by the default (renews) are a model-conformance violation', async () => {
    const { history } = await run(countingSubjects(undefined, 1));
    expect(history.ops.every((o) => !Object.hasOwn(o.input as object, 'reacquire'))).toBe(true);
    const result = check(history, PATTERNS.semaphore);
    expect(result.verdict).toBe('illegal');
    expect(result.violations.map((v) => v.invariant)).toEqual(['model-conformance']);
  });

  it('declared counts but renewing the holder anyway: a violation of the promise declared', async () => {
    const renewing = inMemorySubjects(models.semaphore as never, 1).map((s) => ({ ...s, capabilities: exact }));
    // The in-memory reference steps the model with the input it is handed: strip the choice, so it renews.
    const stripped = renewing.map((s) => ({
      ...s,
      invoke: (key: string, input: unknown) => s.invoke(key, { ...(input as object), reacquire: undefined }),
    }));
    const { history } = await run(stripped);
    expect(history.ops.map((o) => o.output)).toEqual([1, 1, 1, 1]);
    const result = check(history, PATTERNS.semaphore);
    expect(result.verdict).toBe('illegal');
    expect(result.violations.map((v) => v.invariant)).toEqual(['model-conformance']);
  });
});

describe('the certificate, result, JUnit file and summary name the promise judged', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
  const job = async (capabilities: Capabilities) => {
    const report = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-variants-'));
    roots.push(report);
    const options = jobOptions('certify', {
      pattern: 'semaphore',
      runs: '1',
      seed: '5',
      faults: 'none',
      clients: '2',
      keys: '1',
      report,
    });
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
    const subjects = inMemorySubjects(models.semaphore as never, 8).map((s) => ({ ...s, capabilities }));
    const result = await runJob(
      options,
      async () => ({ impl: 'in-memory', subjects, capabilities, findings: () => [], close: async () => undefined }),
      quiet,
      new StubCluster().asCluster(),
    );
    return { options, result };
  };

  it('declared counts: variants in certificate.json and result.json, a JUnit property, a summary line', async () => {
    const { options, result } = await job(countsCaps);
    expect(certificate(options, { kind: 'cmd', command: 'in-memory' }, result).variants).toEqual({
      reacquire: 'counts',
    });
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).variants).toEqual({
      reacquire: 'counts',
    });
    expect(fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8')).toContain(
      'name="variants.reacquire" value="counts"',
    );
    expect(summaryText(options, result)).toContain(
      '  semantics declared: reacquire counts (a live holder that acquires again is counted: on a full set, itself included, it is refused (0) and not renewed)\n',
    );
  });

  it('nothing declared: no variants field, no line (certificates read as before)', async () => {
    const { options, result } = await job(parseCapabilities(semaphore, LEVELS, 'caps'));
    expect(certificate(options, { kind: 'cmd', command: 'in-memory' }, result)).not.toHaveProperty('variants');
    expect(summaryText(options, result)).not.toContain('semantics declared');
  });
});
