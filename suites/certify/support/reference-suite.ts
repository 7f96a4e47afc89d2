import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import { runJob } from '../../../src/certify/job.ts';
import { behaviourFindings } from '../fixtures/process/job.ts';
import { openerFor } from '../../../src/certify/openers/index.ts';
import type { LocalCluster } from '../../../src/cluster/local.ts';
import { sharedCluster } from '../../support/shared-cluster.ts';
import type { PatternName } from '../../../src/patterns/index.ts';
import { describeImpl, parseImplSpec } from '../../../src/impl/impl-spec.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

/**
 * The reference implementation of a pattern is certified through lua: or through module:
 * (examples/reference-module/store.ts). `npm test`: reference-routes.test.ts (one route);
 * `npm run test:full`: reference-three-ways.full.test.ts (every pattern, both routes; the cmd: route,
 * with both example programs, is examples.full.test.ts).
 */
const root = path.resolve(import.meta.dirname, '../../..');
// One run each under every fault: the long false-alarm evidence is zero-false-alarms.full.test.ts.
const RUNS = 1;
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

export type Route = 'lua' | 'module';

export function referenceSuite(routes: readonly (readonly [PatternName, Route])[]): void {
  let cluster: LocalCluster;
  let reports: string;
  beforeAll(async () => {
    cluster = await sharedCluster();
    reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-three-ways-'));
  });
  afterAll(async () => {
    fs.rmSync(reports, { recursive: true, force: true });
  });

  async function certify(pattern: PatternName, impl: string) {
    const spec = parseImplSpec(impl, PATTERNS[pattern]);
    const options = {
      ...jobOptions('certify', { pattern, runs: String(RUNS), seed: '2026', report: reports }),
      implSpec: describeImpl(spec),
    };
    return runJob(options, openerFor(PATTERNS[pattern], spec), quiet, cluster);
  }

  describe('the reference implementations are certified', () => {
    for (const [pattern, route] of routes) {
      const impl =
        route === 'lua'
          ? `lua:${path.join(root, 'lua', pattern)}`
          : `module:${path.join(root, 'examples/reference-module/store.ts')}`;
      it(`${pattern} through ${route}:`, async () => {
        const result = await certify(pattern, impl);
        const why =
          result.invariants
            .filter((s) => !s.passed)
            .map((s) => `${s.invariant}: ${s.violations[0]?.message}`)
            .join('\n') + result.findings.join('\n');
        // A few runs prove the behaviour, not the evidence a certificate needs (see behaviourFindings).
        expect(result.outcome.failure, why).toBeUndefined();
        expect(behaviourFindings(result), why).toEqual([]);
        expect(result.outcome.tally.runs).toBe(RUNS); // judged, not discarded
        expect(result.outcome.tally.ops).toBeGreaterThan(0);
      });
    }
  });
}
