import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FINISHED_RUNS_FILE } from '../../src/certify/finished-runs.ts';
import { reportRoot, removeReportRoots } from './fixtures/process/job.ts';

// Finished runs are evidence, so an environment failure keeps them: the Toxiproxy server is killed in the middle of a certify
// job. The job starts (and disposes) its own cluster, since this one cannot be healed afterwards.
// On several clusters (--clusters) the lost one is replaced and the job goes on.

afterAll(() => removeReportRoots());

/** Pids of this process's children whose command is the Toxiproxy server. */
function toxiproxyChildren(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm.startsWith('toxiproxy')) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/**
 * The job's io, killing one of the Toxiproxy servers the job started (of `servers` in all) once its
 * progress line says 2 runs are done: a terminal's progress line is written after every run.
 */
function killingAfterTwoRuns(servers: number) {
  const before = new Set(toxiproxyChildren());
  const seen = { killed: undefined as number | undefined, stdout: '', stderr: '' };
  const io = {
    stdout: { write: (text: string) => ((seen.stdout += text), true) },
    stderr: {
      isTTY: true,
      write: (text: string) => {
        seen.stderr += text;
        const runs = /runs (\d+)\//.exec(text);
        if (seen.killed === undefined && runs && Number(runs[1]) >= 2) {
          const mine = toxiproxyChildren().filter((pid) => !before.has(pid));
          expect(mine).toHaveLength(servers);
          seen.killed = mine[mine.length - 1];
          process.kill(seen.killed, 'SIGKILL');
        }
        return true;
      },
    },
  };
  return { io, seen, mine: () => toxiproxyChildren().filter((pid) => !before.has(pid)) };
}

describe('the environment failing mid-job', () => {
  it('kills the Toxiproxy server after 2 finished runs: the folder keeps them, result.json says incomplete, exit 3', async () => {
    const root = reportRoot();
    const { io, seen } = killingAfterTwoRuns(1);
    const impl = path.resolve(import.meta.dirname, '../../lua/lock');
    const code = await main(
      [
        'certify',
        '--impl',
        `lua:${impl}`,
        '--pattern',
        'lock',
        '--runs',
        '6',
        '--seed',
        '18',
        '--faults',
        'latency,lease-expiry',
        '--shrink-runs',
        '0',
        '--report',
        root,
      ],
      io,
    );

    expect(seen.killed).toBeDefined();
    expect(code).toBe(3);
    const [folder] = fs.readdirSync(root).filter((f) => fs.statSync(path.join(root, f)).isDirectory());
    const dir = path.join(root, folder);
    const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8'));
    expect(result.incomplete).toBe(true);
    expect(result.passed).toBe(false);
    const finished = result.runs as number;
    expect(finished).toBeGreaterThanOrEqual(2);
    expect(finished).toBeLessThan(6);
    expect(result.findings[0]).toMatch(
      new RegExp(
        `^environment: the cluster could not be healed between runs: .*toxiproxy.*; the job stopped after ${finished} of 6 runs finished`,
      ),
    );
    // Every finished run, with its history.
    const lines = fs.readFileSync(path.join(dir, FINISHED_RUNS_FILE), 'utf8').trimEnd().split('\n');
    const runs = lines.map((l) => JSON.parse(l) as { run: number; verdict: string; history: { ops: unknown[] } });
    expect(runs.map((r) => r.run)).toEqual(Array.from({ length: finished }, (_, i) => i + 1));
    expect(runs.every((r) => r.verdict === 'ok' && r.history.ops.length > 0)).toBe(true);
    const certificate = JSON.parse(fs.readFileSync(path.join(dir, 'certificate.json'), 'utf8'));
    expect(certificate.certified).toBe(false);
    expect(certificate.incomplete).toBe(true);
    expect(certificate.findings[0]).toBe(result.findings[0]);
    expect(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toMatch(
      /name="environment"[^>]*>\s*<failure message="environment: /,
    );
    expect(fs.existsSync(path.join(dir, 'report.html'))).toBe(true);
    expect(seen.stdout).toContain('chaoslua certify: INCOMPLETE');
    expect(seen.stdout).toContain(`${finished} of 6 runs finished`);
  });

  it('on 2 clusters, one Toxiproxy killed after 2 finished runs: a fresh cluster takes its runs over, every run judged, the loss reported', async () => {
    const root = reportRoot();
    const { io, seen, mine } = killingAfterTwoRuns(2);
    const impl = path.resolve(import.meta.dirname, '../../lua/lock');
    const code = await main(
      [
        'certify',
        '--impl',
        `lua:${impl}`,
        '--pattern',
        'lock',
        '--runs',
        '8',
        '--seed',
        '18',
        '--faults',
        'latency,lease-expiry',
        '--shrink-runs',
        '0',
        '--clusters',
        '2',
        '--report',
        root,
      ],
      io,
    );

    expect(seen.killed).toBeDefined();
    const [folder] = fs.readdirSync(root).filter((f) => fs.statSync(path.join(root, f)).isDirectory());
    const result = JSON.parse(fs.readFileSync(path.join(root, folder, 'result.json'), 'utf8'));
    expect(result.incomplete ?? false).toBe(false);
    expect(result.runs).toBe(8);
    expect(
      result.discarded.causes.filter((c: string) =>
        c.startsWith('cluster replaced: the cluster could not be healed between runs'),
      ),
    ).toHaveLength(1);
    expect(seen.stderr).toContain('a fresh one takes over its runs');
    expect(code).toBe(0);
    // The replacement's servers went with the job like the others.
    expect(mine()).toEqual([]);
  });
});
