import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobChaosOptions } from '../../../src/certify/chaos-options.ts';
import { runJob } from '../../../src/certify/job.ts';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import { models, PATTERNS } from '../../../src/patterns/index.ts';
import { chaos, discardAllowance } from '../../../src/certify/chaos.ts';
import { runSchedule } from '../../../src/runner/run.ts';
import { inMemorySubjects, StubCluster } from '../runner/stub-cluster.ts';

// Discarded runs never count towards the budget, and probes that cannot be read are reported:
// the runner's side of what a certificate may claim, on a cluster stub (no server is involved in
// either: a run is discarded when the cluster fails around it, a probe is a cluster read).

const model = models.lock;
const options = (runs: number) =>
  jobChaosOptions({
    runs,
    seed: 42,
    faults: [],
    timeLimitMs: 600_000,
    shrinkRuns: 0,
    nodeTimeoutMs: 1_000,
    clients: 2,
    keys: 1,
  });
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describe('judged runs', () => {
  it('a discarded run is replaced: the runs asked are all judged, the discards reported with their cause', async () => {
    const stub = new StubCluster({ topologyFails: (call) => call % 3 === 0 });
    const outcome = await chaos(
      { cluster: stub.asCluster(), subjects: inMemorySubjects(model, 8), pattern: PATTERNS.lock },
      options(6),
    );
    expect(outcome.failure).toBeUndefined();
    expect(outcome.tally.runs).toBe(6);
    expect(outcome.tally.discarded).toBeGreaterThan(0);
    expect(outcome.tally.discardCauses).toHaveLength(outcome.tally.discarded);
    expect(outcome.tally.discardCauses[0]).toBe('CLUSTERDOWN Hash slot not served');
    expect(outcome.shortOfRuns).toBe(false);
  });

  it('when every run is discarded, none is judged and the outcome says it fell short', async () => {
    const stub = new StubCluster({ topologyFails: () => true });
    const outcome = await chaos(
      { cluster: stub.asCluster(), subjects: inMemorySubjects(model, 8), pattern: PATTERNS.lock },
      options(4),
    );
    expect(outcome.tally.runs).toBe(0);
    expect(outcome.tally.discarded).toBe(4 + discardAllowance(4));
    expect(outcome.shortOfRuns).toBe(true);
  });

  it('a job whose every run was discarded is not certified, and says how many runs were judged', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-judged-'));
    roots.push(root);
    // The job reads the topology once for its report; every run after that fails.
    const stub = new StubCluster({ topologyFails: (call) => call > 1 });
    const job = jobOptions('certify', {
      pattern: 'lock',
      runs: '3',
      seed: '7',
      faults: 'none',
      clients: '2',
      keys: '1',
      report: root,
    });
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
    const result = await runJob(
      job,
      async () => ({
        impl: 'in-memory',
        subjects: inMemorySubjects(model, 8),
        findings: () => [],
        close: async () => undefined,
      }),
      quiet,
      stub.asCluster(),
    );
    expect(result.passed).toBe(false);
    expect(result.outcome.tally.runs).toBe(0);
    expect(result.findings).toEqual([
      `budget: only 0 of 3 runs were judged; ${3 + discardAllowance(3)} discarded (CLUSTERDOWN Hash slot not served)`,
    ]);
    const junit = fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase classname="[^"]*" name="judged-runs"[^>]*>\s*<failure message="budget: only 0 of 3 runs were judged/,
    );
  });
});

describe('the environment of runJob', () => {
  it('is closed after the job, not before: every run is judged on an implementation still open', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-environment-'));
    roots.push(root);
    const job = jobOptions('certify', {
      pattern: 'lock',
      runs: '3',
      seed: '7',
      faults: 'none',
      clients: '2',
      keys: '1',
      report: root,
      'shrink-runs': '0',
    });
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
    let closed = false;
    let callsAfterClose = 0;
    const subjects = inMemorySubjects(model, 8).map((subject) =>
      Object.assign(Object.create(subject) as typeof subject, {
        invoke: (...args: Parameters<typeof subject.invoke>) => (closed && callsAfterClose++, subject.invoke(...args)),
      }),
    );
    const result = await runJob(
      job,
      async () => ({ impl: 'in-memory', subjects, findings: () => [], close: async () => void (closed = true) }),
      quiet,
      new StubCluster().asCluster(),
    );
    expect(result.outcome.tally.runs).toBe(3);
    expect(result.outcome.tally.ops).toBeGreaterThan(0);
    expect(callsAfterClose).toBe(0);
    expect(closed).toBe(true);
  });
});

describe('TTL probes', () => {
  const schedule = {
    pattern: 'lock' as const,
    keys: 2,
    clients: [[{ type: 'op' as const, key: 0, input: { op: 'acquire', token: 't', ttlMs: 300 } }]],
    faults: [],
  };
  const ctx = (stub: StubCluster) => ({
    cluster: stub.asCluster(),
    subjects: inMemorySubjects(model, 1, (k) => `{${k}}`),
    namespace: 'probe-test',
    nodeTimeoutMs: 1_000,
    opTimeoutMs: 1_000,
  });

  it('every key is probed when the cluster answers', async () => {
    const run = await runSchedule(schedule, ctx(new StubCluster()));
    expect(run.unreadProbes).toEqual([]);
    expect(run.history.probes?.map((p) => p.key)).toEqual(['probe-test:k0', 'probe-test:k1']);
  });

  it('a probe that cannot be read is reported with its error, never silently missing', async () => {
    const run = await runSchedule(schedule, ctx(new StubCluster({ probeError: 'Command timed out' })));
    expect(run.history.probes).toEqual([]);
    expect(run.unreadProbes).toEqual(['probe-test:k0: Command timed out', 'probe-test:k1: Command timed out']);
  });
});
