import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { runJob } from '../../src/certify/job.ts';
import { LocalCluster } from '../../src/cluster/local.ts';
import type { Cluster } from '../../src/cluster/types.ts';
import type { PatternName } from '../../src/generator/schedule.ts';
import { behaviourFindings, certifyOptions, counting, lend, quietIo, removeReportRoots, reportRoot } from './fixtures/process/job.ts';

// The two example implementations, certified through cmd: like any user's program would be, and
// each with a known bug switched on, which certification must reject.

const shared = vi.hoisted(() => ({ cluster: undefined as Cluster | undefined }));
vi.mock('../../src/cluster/select.ts', () => ({ startCluster: async () => lend(shared.cluster!) }));

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLES = {
  python: `${ROOT}/examples/python-redis-py/.venv/bin/python ${ROOT}/examples/python-redis-py/main.py`,
  go: `${ROOT}/examples/go-go-redis/chaoslua-go-example`,
};
const PATTERNS: PatternName[] = ['idempotency', 'lock', 'ratelimit'];

async function certify(pattern: PatternName, command: string, runs: number) {
  const { open, answers } = counting(cmdOpener(pattern, command, { stderrFile: path.join(reportRoot(), 'stderr.log') }));
  // Shrinking a failure is not what these tests are about: a few re-runs keep them short.
  const result = await runJob(certifyOptions({ pattern, runs: String(runs), seed: '20240611', faults: 'all', 'shrink-runs': '3' }), open, quietIo);
  return { result, answers };
}

beforeAll(async () => {
  // Builds the Go binary and the Python venv when missing or stale; a no-op otherwise.
  execFileSync(path.join(ROOT, 'scripts/bootstrap-examples.sh'), ['--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  shared.cluster = await LocalCluster.start();
});

afterAll(async () => {
  removeReportRoots();
  await shared.cluster?.dispose();
});

describe.each(Object.entries(EXAMPLES))('the %s example', (example, command) => {
  it.each(PATTERNS)(`is certified for %s under every fault`, async (pattern) => {
    const { result, answers } = await certify(pattern, command, 3);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.outcome.tally.runs).toBe(3); // judged, not discarded
    expect(result.impl).toContain(example === 'python' ? '(python-redis-py 0.1.0)' : '(go-go-redis 0.1.0)');
    // Most operations were really answered (faults make some fail), so the pass means something.
    expect(answers.ok).toBeGreaterThan(answers.errors.length);
    expect(answers.ok).toBeGreaterThan(10);
  });
});

describe('certification rejects a known bug in each example', () => {
  it('python: complete without the owner check (a stale attempt overwrites the record)', async () => {
    const { result } = await certify('idempotency', `${EXAMPLES.python} --mutant complete-skips-owner-check`, 10);
    expect(result.passed).toBe(false);
    expect(result.findings).toEqual([]); // a violation of the model, not a protocol problem
    expect(result.outcome.failure?.result.verdict).toBe('illegal');
    expect(result.counterexampleFile).toBeDefined();
  });

  it('go: lock release by a blind DEL (frees whoever holds the lock)', async () => {
    const { result } = await certify('lock', `${EXAMPLES.go} -mutant release-skips-token-check`, 10);
    expect(result.passed).toBe(false);
    expect(result.findings).toEqual([]);
    expect(result.outcome.failure?.result.verdict).toBe('illegal');
    expect(result.counterexampleFile).toBeDefined();
  });
});
