import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { runJob } from '../../src/certify/job.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import type { PatternName } from '../../src/patterns/index.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { summaryText } from '../../src/certify/summary.ts';
import { certificate } from '../../src/cli/certify.ts';
import { parseImplSpec } from '../../src/impl/impl-spec.ts';
import {
  behaviourFindings,
  certifyOptions,
  counting,
  quietIo,
  removeReportRoots,
  reportRoot,
} from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// The reference wrapped to answer at coarse levels is still certified at the default budget (40
// runs, every fault): coarse answers cost no false alarm and no missing evidence. And the same
// declarations through the process protocol's 1.1 hello.

const COARSE = path.resolve(import.meta.dirname, 'fixtures/coarse');
const PROCESS = path.resolve(import.meta.dirname, 'fixtures/process/reference.mjs');
const REDIS_SEMAPHORE = path.resolve(import.meta.dirname, '../../examples/third-party/redis-semaphore-mutex');
const redisSemaphoreInstalled = fs.existsSync(path.join(REDIS_SEMAPHORE, 'node_modules/redis-semaphore/package.json'));

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await sharedCluster();
});
afterAll(() => removeReportRoots());

/** The job's result; its summary printed when it did not pass, so that a failure names its cause. */
async function certify(pattern: PatternName, file: string) {
  const options = certifyOptions({ pattern, seed: '1212', 'shrink-runs': '0' });
  const result = await runJob(options, moduleOpener(PATTERNS[pattern], path.join(COARSE, file)), quietIo, cluster);
  if (!result.passed) console.log(summaryText(options, result));
  return result;
}

describe('the reference, answering at coarse levels, at the default budget', () => {
  it('lock: booleans, with its own lock values as holder handles, is certified', async () => {
    const result = await certify('lock', 'lock-handles-store.ts');
    expect(result.findings).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.invariants.every((s) => s.passed && !s.notApplicable)).toBe(true);
    expect(result.capabilities.declared).toBe(true);
  }, 900_000);

  it('idempotency: register outcomes without the stored fields, booleans elsewhere, is certified', async () => {
    const result = await certify('idempotency', 'idempotency-outcome-store.ts');
    expect(result.findings).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.invariants.every((s) => s.passed && !s.notApplicable)).toBe(true);
  }, 900_000);
});

describe('chaoslua-process/1.1', () => {
  it('a program declaring boolean levels, holder handles and its key prefix in its hello: every invariant holds, probes read its keys', async () => {
    const open = cmdOpener(PATTERNS.lock, `node ${PROCESS} --coarse`, {
      stderrFile: path.join(reportRoot(), 'stderr.log'),
    });
    const result = await runJob(
      certifyOptions({ pattern: 'lock', runs: '6', seed: '1213', 'shrink-runs': '0' }),
      open,
      quietIo,
      cluster,
    );
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.invariants.every((s) => s.passed && !s.notApplicable)).toBe(true);
    expect(result.capabilities.operations).toEqual({
      acquire: { level: 'boolean', handle: true },
      release: { level: 'boolean', handle: false },
      extend: { level: 'boolean', handle: false },
    });
    expect(result.keyMapping).toBe('prefix "mutex:"');
    expect(result.probeNotes).toEqual([]);
    expect(result.evidence.transitions['held → absent by release']).toBeGreaterThan(0);
  }, 600_000);
});

describe('a real library: redis-semaphore 5.8.0 Mutex (examples/third-party/redis-semaphore-mutex)', () => {
  // Its own package.json pins it; the bootstrap (with --examples, as test:full runs it) installs
  // it there; the repository does not depend on it. Not installed is a failure, never a skip.
  it('acquire boolean, release void, extend boolean, keys under mutex:: certified, every invariant witnessed', async () => {
    expect(
      redisSemaphoreInstalled,
      'examples/third-party/redis-semaphore-mutex has no node_modules: run scripts/bootstrap-examples.sh',
    ).toBe(true);
    const file = path.join(REDIS_SEMAPHORE, 'store.mjs');
    const result = await runJob(
      certifyOptions({ pattern: 'lock', seed: '1214', 'shrink-runs': '0' }),
      moduleOpener(PATTERNS.lock, file),
      quietIo,
      cluster,
    );
    expect(result.findings).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.invariants.every((s) => s.passed && !s.notApplicable)).toBe(true);
    expect(result.keyMapping).toBe('prefix "mutex:"');
    expect(result.probeNotes).toEqual([]);
  }, 900_000);
});

// Semantic variants through a short job (npm test judges single schedules by them, in
// capabilities.test.ts): a semaphore whose acquire counts first, as redis-semaphore's does, declaring
// reacquire: 'counts' as a module and as a program. The program (the process fixture's --counts)
// answers an error to any acquire whose args lack the choice, so a job shows that it reached it.
describe('a semantic variant declared, through a short job', () => {
  const COUNTS_MODULE = path.resolve(import.meta.dirname, 'fixtures/variants/semaphore-counts-store.ts');
  const COUNTS_FLAGS = { pattern: 'semaphore', seed: '13', faults: 'latency', 'shrink-runs': '0' } as const;
  const EVERY_INVARIANT_HELD = [
    ['at-most-limit', true],
    ['no-stale-refresh', true],
    ['key-has-ttl', true],
    ['model-conformance', true],
  ];

  it('a module: every invariant holds by the promise declared, and the certificate, result and summary say which', async () => {
    const options = certifyOptions({ ...COUNTS_FLAGS, runs: '2' });
    const result = await runJob(options, moduleOpener(PATTERNS.semaphore, COUNTS_MODULE), quietIo, cluster);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.map((s) => [s.invariant, s.passed])).toEqual(EVERY_INVARIANT_HELD);
    expect(result.evidence.transitions['held → held by acquire']).toBeGreaterThan(0);
    const cert = certificate(options, parseImplSpec(`module:${COUNTS_MODULE}`, PATTERNS.semaphore), result);
    expect(cert.variants).toEqual({ reacquire: 'counts' });
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).variants).toEqual({
      reacquire: 'counts',
    });
    expect(summaryText(options, result)).toContain(
      '  semantics declared: reacquire counts (a live holder that acquires again is counted: ',
    );
  });

  it('a program (chaoslua-process/1.1 hello): judged by the variant it declares, which arrives in the args of every acquire', async () => {
    const open = cmdOpener(PATTERNS.semaphore, `node ${PROCESS} --counts`, {
      requestTimeoutMs: 15_000,
      handshakeTimeoutMs: 5_000,
      stderrFile: path.join(reportRoot(), 'stderr.log'),
    });
    const counted = counting(open);
    const result = await runJob(certifyOptions({ ...COUNTS_FLAGS, runs: '2' }), counted.open, quietIo, cluster);
    expect(counted.answers.errors.filter((e) => e.includes('reacquire'))).toEqual([]);
    expect(counted.answers.ok).toBeGreaterThan(counted.answers.errors.length);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.invariants.map((s) => [s.invariant, s.passed])).toEqual(EVERY_INVARIANT_HELD);
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).variants).toEqual({
      reacquire: 'counts',
    });
  });
});
