import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmdOpener } from '../../../src/certify/openers/cmd.ts';
import { runJob } from '../../../src/certify/job.ts';
import type { LocalCluster } from '../../../src/cluster/local.ts';
import { sharedCluster } from '../../support/shared-cluster.ts';
import type { PatternName } from '../../../src/patterns/index.ts';
import {
  behaviourFindings,
  certifyOptions,
  counting,
  quietIo,
  removeReportRoots,
  reportRoot,
} from '../fixtures/process/job.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

/**
 * The two example implementations, certified through cmd: like any user's program would be, each
 * for every pattern with `runs` runs under every fault; with `withBugs`, also each with a known bug
 * switched on, which certification must reject (examples.full.test.ts, `npm run test:full`).
 */
export function examplesSuite(runs: number, withBugs: boolean): void {
  let cluster: LocalCluster;

  const ROOT = path.resolve(import.meta.dirname, '../../..');
  const EXAMPLES = {
    python: `${ROOT}/examples/python-redis-py/.venv/bin/python ${ROOT}/examples/python-redis-py/main.py`,
    go: `${ROOT}/examples/go-go-redis/chaoslua-go-example`,
  };
  const EXAMPLE_PATTERNS: PatternName[] = ['idempotency', 'lock', 'ratelimit'];

  async function certify(pattern: PatternName, command: string, jobRuns: number) {
    const { open, answers } = counting(
      cmdOpener(PATTERNS[pattern], command, { stderrFile: path.join(reportRoot(), 'stderr.log') }),
    );
    // Shrinking a failure is not what these tests are about: a few re-runs keep them short.
    const result = await runJob(
      certifyOptions({ pattern, runs: String(jobRuns), seed: '20240611', faults: 'all', 'shrink-runs': '3' }),
      open,
      quietIo,
      cluster,
    );
    return { result, answers };
  }

  beforeAll(async () => {
    // Builds the Go binary and the Python venv when missing or stale; a no-op otherwise.
    execFileSync(path.join(ROOT, 'scripts/bootstrap-examples.sh'), ['--quiet'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cluster = await sharedCluster();
  });

  afterAll(async () => {
    removeReportRoots();
  });

  describe.each(Object.entries(EXAMPLES))('the %s example', (example, command) => {
    it.each(EXAMPLE_PATTERNS)(
      `is certified for %s under every fault (${runs} run${runs === 1 ? '' : 's'})`,
      async (pattern) => {
        const { result, answers } = await certify(pattern, command, runs);
        expect(behaviourFindings(result)).toEqual([]);
        expect(result.outcome.failure).toBeUndefined();
        expect(result.outcome.tally.runs).toBe(runs); // judged, not discarded
        expect(result.impl).toContain(example === 'python' ? '(python-redis-py 0.2.0)' : '(go-go-redis 0.2.0)');
        // Most operations were really answered (faults make some fail), so the pass means something.
        // With one run under every fault (reply losses, command delays) errors can be as many as answers;
        // the evidence that it was exercised is the count of answers, not their share.
        expect(answers.ok).toBeGreaterThan(10);
      },
    );
  });

  if (!withBugs) return;

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
}
