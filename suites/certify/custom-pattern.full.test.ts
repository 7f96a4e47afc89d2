// `npm run test:full`: a pattern a team declared in its own file (the lock, through the pattern API)
// gets what a built-in gets, through every door: its scripts (lua:), a JS store (module:), a Python
// program whose hello names the pattern and its operations (cmd:); a known-bad implementation is
// rejected under it; and the CLI's certificate names the pattern file and its digest. About 90 s.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { luaDirOpener } from '../../src/certify/openers/lua-dir.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import type { ImplOpener } from '../../src/certify/types.ts';
import { loadPatternFile } from '../../src/cli/pattern-file.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import type { AnyPattern } from '../../src/patterns/types.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots, reportRoot } from './fixtures/process/job.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'suites/fixtures/patterns');
const PATTERN_FILE = path.join(FIXTURES, 'team-lock.mjs');
const PYTHON = path.join(ROOT, 'examples/python-redis-py/.venv/bin/python');

let cluster: LocalCluster;
let pattern: AnyPattern;

beforeAll(async () => {
  // The Python venv (redis-py) the cmd: adapter runs in; a no-op when it is up to date.
  execFileSync(path.join(ROOT, 'scripts/bootstrap-examples.sh'), ['--quiet'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  pattern = await loadPatternFile(PATTERN_FILE);
  cluster = await sharedCluster();
});

afterAll(() => removeReportRoots());

async function certify(open: ImplOpener, runs: number) {
  return runJob(
    certifyOptions({ pattern: 'team-lock', runs: String(runs), seed: '20261206', faults: 'all', 'shrink-runs': '3' }),
    open,
    quietIo,
    cluster,
  );
}

describe('a pattern declared in a file, through every door', () => {
  it.each([
    ['lua:', () => luaDirOpener(pattern, path.join(ROOT, 'lua/lock'), 'lua:lua/lock')],
    ['module:', () => moduleOpener(pattern, path.join(FIXTURES, 'team-lock-store.mjs'))],
    [
      'cmd:',
      () =>
        cmdOpener(pattern, `${PYTHON} ${path.join(FIXTURES, 'team_lock_adapter.py')}`, {
          stderrFile: path.join(reportRoot(), 'stderr.log'),
        }),
    ],
  ])('certifies the lock through %s under every fault', async (_, opener) => {
    const result = await certify(opener(), 4);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.outcome.tally.runs).toBe(4);
    expect(result.outcome.tally.ops).toBeGreaterThan(40);
  });

  it('rejects a lock whose release deletes whoever holds it', async () => {
    const result = await certify(
      luaDirOpener(pattern, path.join(ROOT, 'scenarios/mutants/lock/release-blind-delete'), 'mutant'),
      20,
    );
    expect(result.passed).toBe(false);
    expect(result.outcome.failure?.result.verdict).toBe('illegal');
    expect(result.outcome.failure?.result.violations.map((v) => v.invariant)).toEqual(
      expect.arrayContaining([expect.stringMatching(/one-holder|model-conformance/)]),
    );
  });
});

describe('the certificate of a pattern file', () => {
  it('names the file, relative to where the job ran, and its SHA-256', () => {
    const report = reportRoot();
    const run = spawnSync(
      process.execPath,
      [
        'bin/chaoslua.mjs',
        'certify',
        '--pattern',
        path.relative(ROOT, PATTERN_FILE),
        '--impl',
        'lua:lua/lock',
        '--runs',
        '3',
        '--clusters',
        '1',
        '--report',
        report,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const [folder] = fs.readdirSync(report).filter((f) => fs.existsSync(path.join(report, f, 'certificate.json')));
    const certificate = JSON.parse(fs.readFileSync(path.join(report, folder, 'certificate.json'), 'utf8'));
    expect(certificate.pattern).toBe('team-lock');
    expect(certificate.patternFile).toEqual({
      file: 'suites/fixtures/patterns/team-lock.mjs',
      sha256: createHash('sha256').update(fs.readFileSync(PATTERN_FILE)).digest('hex'),
    });
    expect(run.stdout).toMatch(/pattern file: .*team-lock\.mjs \(sha256 [0-9a-f]{16}…\)/);
  });
});
