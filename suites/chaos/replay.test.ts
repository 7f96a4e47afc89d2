import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { runJob } from '../../src/certify/job.ts';
import { main } from '../../src/cli/main.ts';
import { luaDirOpener } from '../../src/certify/openers/lua-dir.ts';
import { readCounterexample } from '../../src/report/counterexample.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

/** A copy of the reference scripts whose complete forgets the owner check, so a stale attempt's response overwrites the new owner's. */
function mutantDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-mutant-'));
  for (const name of ['register_or_get', 'release', 'renew']) {
    fs.copyFileSync(
      path.resolve(import.meta.dirname, `../../lua/idempotency/${name}.lua`),
      path.join(dir, `${name}.lua`),
    );
  }
  fs.writeFileSync(
    path.join(dir, 'complete.lua'),
    "-- KEYS[1] = key\n-- ARGV[1] = owner\nif redis.call('EXISTS', KEYS[1]) == 0 then return 0 end\n" +
      "redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'body', ARGV[3])\n" +
      "redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))\nreturn 1\n",
  );
  return dir;
}

interface ReplayOutcome {
  recheck: string;
  rerun: { attempts: number; failedAgain: boolean };
  reproduced: boolean;
}

function capture() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } },
    out: () => out,
    err: () => err,
  };
}

let dir: string;
let reports: string;
let counterexample: string;
beforeAll(async () => {
  dir = mutantDir();
  reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-replay-reports-'));
  const options = {
    ...jobOptions('certify', { runs: '40', seed: '11', report: reports, 'shrink-runs': '4' }),
    implSpec: `lua:${dir}`,
  };
  const result = await runJob(
    options,
    luaDirOpener(PATTERNS.idempotency, dir, `lua:${dir}`),
    capture().io,
    await sharedCluster(),
  );
  expect(result.passed).toBe(false);
  counterexample = result.counterexampleFile!;
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(reports, { recursive: true, force: true });
});

describe('replay of a saved counterexample', () => {
  it('the file holds seed, path, shrunk schedule, history and verdict', () => {
    const ce = readCounterexample(counterexample);
    expect(ce.seed).toBe(11);
    expect(ce.result.verdict).toBe('illegal');
    expect(ce.history.ops.length).toBeGreaterThan(0);
    expect(ce.schedule.clients.length).toBeGreaterThan(0);
    expect(ce.scheduleText).toContain('c0:');
    expect(ce.implSpec).toBe(`lua:${dir}`);
  });

  it('re-checking the recorded history reproduces the verdict and the invariant, exit 1', async () => {
    const ce = readCounterexample(counterexample);
    const c = capture();
    const code = await main(['replay', counterexample, '--no-rerun'], c.io);
    expect(code).toBe(1);
    expect(c.out()).toContain('re-check of the recorded history: illegal (recorded: illegal)');
    expect(c.out()).toContain(`${ce.result.violations[0].invariant}:`);
  });

  // The schedule was shrunk to one that fails: re-run against the same broken scripts it must fail
  // again. A few attempts, because a re-run's timing is not the recorded one.
  it('re-running the shrunk schedule against the implementation that failed reproduces it, exit 1', async () => {
    const c = capture();
    const code = await main(['replay', counterexample, '--reruns', '5', '--json'], c.io);
    const outcome = JSON.parse(c.out()) as ReplayOutcome;
    expect(outcome.recheck).toBe('illegal');
    expect(outcome.rerun.failedAgain).toBe(true);
    expect(outcome.reproduced).toBe(true);
    expect(code).toBe(1);
  });

  // The same counterexample once the bug is fixed (the reference complete.lua put back where the
  // counterexample's implSpec points): the recorded history is still illegal, the re-run passes.
  it('re-running it against the fixed implementation does not reproduce it, exit 0', async () => {
    fs.copyFileSync(
      path.resolve(import.meta.dirname, '../../lua/idempotency/complete.lua'),
      path.join(dir, 'complete.lua'),
    );
    const c = capture();
    const code = await main(['replay', counterexample, '--reruns', '2', '--json'], c.io);
    const outcome = JSON.parse(c.out()) as ReplayOutcome;
    expect(outcome.recheck).toBe('illegal');
    expect(outcome.rerun).toMatchObject({ attempts: 2, failedAgain: false });
    expect(outcome.reproduced).toBe(false);
    expect(code).toBe(0);
  });

  it('a file that is not a counterexample is a usage error', async () => {
    const bogus = path.join(reports, 'bogus.json');
    fs.writeFileSync(bogus, '{"hello": 1}');
    const c = capture();
    expect(await main(['replay', bogus], c.io)).toBe(2);
    expect(c.err()).toMatch(/not a chaoslua counterexample/);
  });
});
