// client-clock through the cmd: door, on the real cluster with the Python example (redis-py, its
// Python kit): a process per logical client, each under the clock preload with its own page.
// - `--mutant lease-by-client-clock` keeps the lease's end on the caller's time.time() (the module
//   mutant idempotency/lease-by-client-clock, ported): rejected through the CLI with
//   `--faults client-clock` (one-winner), certified on the same seed with client-clock off.
// - The example as it is (the reference scripts) is certified under client-clock: no false alarm.
// - The Go example keeps one process, and its certificate says its clock was not reached and why.
// Needs the examples bootstrapped (`npm run test:full` does it first: scripts/bootstrap-examples.sh).
// About 40 s.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { openerFor } from '../../src/certify/openers/index.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { parseImplSpec } from '../../src/impl/impl-spec.ts';
import { PATTERNS } from '../../src/patterns/index.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PYTHON = 'examples/python-redis-py/.venv/bin/python examples/python-redis-py/main.py';
const GO = 'examples/go-go-redis/chaoslua-go-example';
const MUTANT = `${PYTHON} --mutant lease-by-client-clock`;
/** The seed the mutant is rejected on in its first run with client-clock alone (measured: run 1 of 10). */
const SEED = '1000';
const PER_CLIENT = 'cmd: a process per client under the clock preload (CLOCK_REALTIME, gettimeofday, time)';

let cluster: LocalCluster;
const roots: string[] = [];

beforeAll(async () => {
  for (const file of ['examples/python-redis-py/.venv/bin/python', GO])
    expect(fs.existsSync(path.join(ROOT, file)), `${file} missing: run scripts/bootstrap-examples.sh`).toBe(true);
  cluster = await sharedCluster();
});

afterAll(() => {
  removeReportRoots();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A job on the shared cluster, opened as `chaoslua certify` opens it (client-clock in the set: a process per client). */
async function certify(command: string, faults: string, runs: number) {
  const options = certifyOptions({
    pattern: 'idempotency',
    runs: String(runs),
    seed: SEED,
    faults,
    'shrink-runs': '0',
  });
  const spec = parseImplSpec(`cmd:${command}`, PATTERNS.idempotency);
  const open = openerFor(options.pattern, spec, undefined, options.faults.includes('client-clock'));
  const opened: { reach?: string }[] = [];
  const result = await runJob(
    options,
    async (c, clients) => {
      const o = await open(c, clients);
      opened.push({ reach: o.clientClockReach });
      return o;
    },
    quietIo,
    cluster,
  );
  return { result, reach: opened[0]?.reach };
}

describe('client-clock through cmd:, a process per client', () => {
  it('rejects the Python store that trusts time.time() for the lease, through the CLI (--faults client-clock)', () => {
    const report = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-cmd-clock-'));
    roots.push(report);
    const r = spawnSync(
      process.execPath,
      [
        'bin/chaoslua.mjs',
        'certify',
        ...['--impl', `cmd:${MUTANT}`, '--pattern', 'idempotency', '--faults', 'client-clock', '--runs', '10'],
        ...['--seed', SEED, '--clusters', '1', '--shrink-runs', '0', '--no-corpus', '--report', report],
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL one-winner/);
    const [run] = fs.readdirSync(report);
    const certificate = JSON.parse(fs.readFileSync(path.join(report, run, 'certificate.json'), 'utf8'));
    expect(certificate.certified).toBe(false);
    expect(certificate.clientClocks).toContain(`; ${PER_CLIENT}: python (reads the wall clock through the C library)`);
  }, 120_000);

  it('certifies the same store on the same seed with client-clock off: the clocks are what find it', async () => {
    const { result, reach } = await certify(MUTANT, 'none', 10);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.findings).toEqual([]);
    expect(result.outcome.tally.runs).toBe(10);
    expect(reach).toMatch(/^cmd: not reached: one program serves every logical client/);
  }, 120_000);

  it('certifies the example as it is (the reference scripts) under client-clock: no false alarm', async () => {
    const { result, reach } = await certify(PYTHON, 'client-clock', 10);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.findings).toEqual([]);
    expect(result.outcome.tally.runs).toBe(10);
    expect(reach).toMatch(new RegExp(`^${PER_CLIENT.replace(/[()]/g, '\\$&')}`));
  }, 120_000);

  it('keeps one process for the Go example and says its clock is not reached, and why', async () => {
    const { result, reach } = await certify(GO, 'client-clock', 2);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.failure).toBeUndefined();
    expect(reach).toBe(
      `cmd: not reached: ${GO}, a Go program (its ELF has a .go.buildinfo section): Go reads the wall clock through the kernel's vDSO, not the C library, so no preload can move it; one process serves every client`,
    );
  }, 120_000);
});
