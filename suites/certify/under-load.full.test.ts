import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reapedDir } from '../../src/cluster/reaper.ts';

// `npm run test:full`: a certify must neither exit 3 (environment) nor raise a false alarm when the
// machine is busy. The reference idempotency store is certified while CPU burners hold every core,
// and twice at once (two clusters on one machine). Each certify starts its own cluster, as on CI.

const ROOT = path.resolve(import.meta.dirname, '../..');
const bin = path.join(ROOT, 'bin/chaoslua.mjs');
const RUNS = 30;
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(dir);
  return dir;
};

interface Certified {
  readonly code: number | null;
  readonly output: string;
  readonly certificate?: { certified: boolean; runs: number; operations: number };
}

/** `chaoslua certify` of the reference as a child process (not spawnSync: two may run at once). */
function certify(seed: number): Promise<Certified> {
  const report = tempDir('chaoslua-load-');
  // A corpus of its own: the default (beside the implementation) would carry one job's counterexample into the next.
  const corpus = tempDir('chaoslua-load-corpus-');
  const args = [
    bin,
    'certify',
    '--impl',
    'lua:lua/idempotency',
    '--runs',
    String(RUNS),
    '--seed',
    String(seed),
    '--report',
    report,
    '--corpus',
    corpus,
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const [run] = fs.readdirSync(report).filter((d) => fs.statSync(path.join(report, d)).isDirectory());
      const file = run && path.join(report, run, 'certificate.json');
      resolve({
        code,
        output,
        certificate: file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined,
      });
    });
  });
}

function expectCertified(r: Certified): void {
  expect(r.code, `exit ${r.code} (3 is an environment failure, 1 not certified):\n${r.output}`).toBe(0);
  expect(r.certificate?.certified).toBe(true);
  expect(r.certificate?.runs).toBe(RUNS);
  expect(r.certificate?.operations).toBeGreaterThan(0);
}

/**
 * One busy-looping process per core, for as long as `job` runs. They are the reaper's children, so
 * they die with this worker however it ends; the dir they carry on their command line lets the
 * run's leftover check see them.
 */
async function whileBurning<T>(job: () => Promise<T>): Promise<T> {
  const burners = reapedDir('chaoslua-burner');
  try {
    const children = os.cpus().map(() => burners.spawn(process.execPath, ['-e', 'for (;;) {}', burners.dir]));
    // Burning already, not merely spawned: each has used CPU time before the job starts.
    for (const child of children) {
      for (;;) {
        const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        if (Number(stat[11]) > 0) break; // utime, in clock ticks
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    return await job();
  } finally {
    burners.destroy();
  }
}

describe('certify under load', () => {
  it(`the reference, while a CPU burner holds every core: certified (${RUNS} runs)`, {
    timeout: 1_800_000,
  }, async () => {
    expectCertified(await whileBurning(() => certify(20_261_202)));
  });

  it(`the reference, twice at once on two clusters: both certified (${RUNS} runs each)`, {
    timeout: 1_800_000,
  }, async () => {
    const [a, b] = await Promise.all([certify(20_261_203), certify(20_261_204)]);
    expectCertified(a);
    expectCertified(b);
  });
});
