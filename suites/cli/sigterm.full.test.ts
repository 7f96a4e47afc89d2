import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { marked, startCli, type CliHandle } from './support/hostile.ts';

// A CI runner's cancel sends SIGTERM, a person's Ctrl-C SIGINT. A real certify, signalled
// while its clusters start, while its runs go, and while it writes its run folder, ends within
// seconds, and only once what it started is gone: at the moment of its exit no process it started is
// alive (a certify once exited in 56 ms while its 24 redis-servers lived on for 1.6 s) and its temp
// folder is empty (chaoslua-runs-* was left behind). A run folder it had begun is kept as far as it
// got (docs/commands/certify.md). About 40 s in all.

const REFERENCE = `lua:${path.resolve(import.meta.dirname, '../../lua/idempotency')}`;

/** Polls `ready` every 10 ms until it holds (then returns true) or the CLI has exited (false). */
async function until(ready: () => boolean, exited: { done: boolean }): Promise<boolean> {
  while (!exited.done) {
    if (ready()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

const runsLogged = (tmp: string) =>
  fs
    .readdirSync(tmp)
    .some(
      (d) =>
        d.startsWith('chaoslua-runs-') &&
        fs.existsSync(path.join(tmp, d, 'finished-runs.jsonl')) &&
        fs.statSync(path.join(tmp, d, 'finished-runs.jsonl')).size > 0,
    );
const runFolderBegun = (cwd: string) =>
  fs.existsSync(path.join(cwd, 'reports')) && fs.readdirSync(path.join(cwd, 'reports')).length > 0;

const PHASES: [string, NodeJS.Signals, string[], (cli: CliHandle) => boolean][] = [
  [
    'while its two clusters start',
    'SIGTERM',
    ['--runs', '200', '--clusters', '2'],
    (cli) => marked(cli.mark).some((p) => p.endsWith('redis-server')),
  ],
  ['while its runs go (one judged)', 'SIGTERM', ['--runs', '200', '--clusters', '2'], (cli) => runsLogged(cli.tmp)],
  ['with Ctrl-C while its runs go', 'SIGINT', ['--runs', '200', '--clusters', '2'], (cli) => runsLogged(cli.tmp)],
  ['while it writes its run folder', 'SIGTERM', ['--runs', '1', '--clusters', '1'], (cli) => runFolderBegun(cli.cwd)],
];

describe('a certify ends on SIGTERM or SIGINT at any phase, after what it started', () => {
  it.each(PHASES)('%s', async (_, signal, more, phase) => {
    const cli = startCli(['certify', '--impl', REFERENCE, '--no-corpus', '--faults', 'none', ...more], {
      deadlineMs: 120_000,
    });
    const exited = { done: false };
    const ended = cli.ended.then((r) => ((exited.done = true), r));
    const reached = await until(() => phase(cli), exited);
    const sent = Date.now();
    if (reached) process.kill(cli.pid, signal);
    const r = await ended;
    expect(reached, `the CLI ended before the phase: ${r.stderr}`).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(Date.now() - sent, 'ended within seconds of the signal').toBeLessThan(5_000);
    // Ended by the signal, as a shell expects (128 + its number), not by a verdict.
    expect(r.signal ?? r.code).toBe(signal);
    expect(r.processesLeft, 'alive at the moment of the exit').toEqual([]);
    expect(
      r.filesLeft.filter((f) => f !== 'cwd/reports'),
      'the temp and working folders',
    ).toEqual([]);
  });
});
