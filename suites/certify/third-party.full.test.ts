import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { projectRoot } from '../../src/cluster/binaries.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { clusterLanes } from '../support/cluster-lanes.ts';
import { certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';
import { PINNED, type Pinned, THIRD_PARTY } from './support/third-party-pins.ts';

// Each library of examples/third-party, certified at the default budget (40 runs, every fault) with
// the seed its kept certificate was earned with: the verdict must be the one the results table
// shows (certified, rejected for the named invariant, or not certified for the named finding). Each
// library is pinned in its folder's own package.json and installed there by the bootstrap (test:full
// runs it with the examples); not installed is a failure, never a skip. Shrinking is off: the
// verdict is what is pinned, not the counterexample (the kept one is under the folder's findings/).

const describeVerdict = (v: Pinned['verdict']) =>
  v === 'certified'
    ? 'certified'
    : 'invariant' in v
      ? `rejected for ${v.invariant.join(' or ')}`
      : `not certified: ${v.finding}`;

// The pins are independent jobs that mostly wait (on faults, heals, leases, a window of seconds):
// five at a time, each on a cluster of its own, the longest first (by its kept certificate's
// seconds), so the file lasts about as long as its longest pin, not as a queue behind it.
const lanes = clusterLanes(5);
const keptSeconds = (p: Pinned): number => {
  try {
    return Number(JSON.parse(fs.readFileSync(path.join(THIRD_PARTY, p.folder, p.certificate), 'utf8')).seconds) || 0;
  } catch {
    return 0; // the test itself names the missing certificate
  }
};
const LONGEST_FIRST = [...PINNED].sort((a, b) => keptSeconds(b) - keptSeconds(a));
afterAll(async () => {
  await lanes.dispose();
  removeReportRoots();
});

describe('libraries teams already run (examples/third-party), each verdict pinned by its seed', () => {
  for (const pinned of LONGEST_FIRST) {
    it.concurrent(`${pinned.folder}/${pinned.module}${pinned.set ? ` --set ${pinned.set.join(' --set ')}` : ''}: ${describeVerdict(pinned.verdict)} (seed ${pinned.seed})`, async () => {
      const dir = path.join(THIRD_PARTY, pinned.folder);
      const installed = pinned.installed ?? path.join('node_modules', pinned.library, 'package.json');
      expect(
        fs.existsSync(path.join(dir, installed)),
        `examples/third-party/${pinned.folder} has no ${installed}: run scripts/bootstrap-examples.sh`,
      ).toBe(true);
      // The kept certificate (the table's source) says the same as this pin.
      const kept = JSON.parse(fs.readFileSync(path.join(dir, pinned.certificate), 'utf8'));
      const spec =
        pinned.command === undefined
          ? kept.implementation.spec.endsWith(`/${pinned.folder}/${pinned.module}`)
          : kept.implementation.spec === `cmd:${pinned.command}`;
      expect({ seed: kept.seed, certified: kept.certified, module: spec }).toEqual({
        seed: pinned.seed,
        certified: pinned.verdict === 'certified',
        module: true,
      });

      const file = path.join(dir, pinned.module);
      const options = certifyOptions({
        pattern: pinned.pattern,
        seed: String(pinned.seed),
        'shrink-runs': '0',
        ...(pinned.set ? { set: [...pinned.set] } : {}),
        ...(pinned.timeLimit ? { 'time-limit': pinned.timeLimit } : {}),
        ...(pinned.runs ? { runs: String(pinned.runs) } : {}),
        ...(pinned.faults ? { faults: pinned.faults.join(',') } : {}),
      });
      // The faults the job asks for are the kept certificate's (every one when it names none).
      expect(pinned.faults ?? null).toEqual(kept.faultsAsked ?? null);
      // The settings the job runs with are the kept certificate's (one written before settings existed drew the defaults).
      if (kept.settings !== undefined) expect(options.settings).toEqual(kept.settings);
      else expect(pinned.set).toBeUndefined();
      // A program runs from the repository's root, as the kept certificate's command says.
      const opener =
        pinned.command === undefined
          ? moduleOpener(PATTERNS[pinned.pattern], file)
          : cmdOpener(PATTERNS[pinned.pattern], pinned.command, { cwd: projectRoot });
      // Each job heals what its faults did after every run; a cluster that cannot be healed is replaced.
      const result = await lanes.run((cluster) => runJob(options, opener, quietIo, cluster));
      console.log(
        `${pinned.folder}/${pinned.module}: ${result.passed ? 'certified' : 'not certified'}; findings ${JSON.stringify(result.findings)}`,
      );
      const violated = result.invariants.filter((s) => s.violations.length > 0).map((s) => s.invariant);
      if (pinned.verdict === 'certified') {
        expect(result.findings, 'findings').toEqual([]);
        expect(violated).toEqual([]);
        expect(result.passed).toBe(true);
      } else if ('invariant' in pinned.verdict) {
        // A name not yet explained keeps its (unshrunk) counterexample in reports/, the history findings/ needs.
        if (
          violated.some((n) => !(pinned.verdict as { invariant: readonly string[] }).invariant.includes(n)) &&
          result.counterexampleFile
        ) {
          const kept = path.join(
            projectRoot,
            'reports',
            'third-party',
            `${pinned.folder}-${pinned.seed}-${violated.join('+')}.counterexample.json`,
          );
          fs.mkdirSync(path.dirname(kept), { recursive: true });
          fs.copyFileSync(result.counterexampleFile, kept);
          console.log(`kept the counterexample of an unexplained name: ${kept}`);
        }
        expect(result.passed).toBe(false);
        // One mechanism can break several of the pinned names in one history (a semaphore over its
        // limit is also off the model): every name broken must be one the findings explain.
        expect(violated.length).toBeGreaterThan(0);
        for (const name of violated) expect(pinned.verdict.invariant).toContain(name);
      } else {
        expect(result.passed).toBe(false);
        expect(violated).toEqual([]);
        expect(
          result.findings.map((f) => f.split(':')[0]),
          result.findings.join(' | '),
        ).toEqual([pinned.verdict.finding]);
      }
    }, 1_200_000);
  }
});
