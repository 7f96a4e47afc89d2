import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The real CLI (bin/chaoslua.mjs, a process of its own) run with a deadline, and what it left: each
 * run gets an empty working folder and an empty temp folder (TMPDIR and CHAOSLUA_TMPDIR, where the
 * reaper and every temp file go), and a mark in its environment that every process it starts
 * inherits, so that anything still running with that mark after the exit is something it left.
 */
export const BIN = path.resolve(import.meta.dirname, '../../../bin/chaoslua.mjs');

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** The deadline passed and the CLI was killed (SIGKILL). */
  readonly timedOut: boolean;
  /** Processes still running with the run's mark, at the moment of its exit: `pid comm`. */
  readonly processesLeft: string[];
  /** What is in the temp folder and the working folder after the exit. */
  readonly filesLeft: string[];
}

export interface CliHandle {
  readonly pid: number;
  readonly mark: string;
  readonly tmp: string;
  readonly cwd: string;
  readonly ended: Promise<CliRun>;
}

/** Starts the CLI; `ended` resolves at its exit (or at the deadline, after killing it). */
export function startCli(
  args: readonly string[],
  { deadlineMs, env = {} }: { deadlineMs: number; env?: NodeJS.ProcessEnv },
): CliHandle {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
  const tmp = path.join(base, 'tmp');
  const cwd = path.join(base, 'cwd');
  fs.mkdirSync(tmp);
  fs.mkdirSync(cwd);
  // tsx keeps its compile cache in TMPDIR: the usual one, shared, or every run compiles all again (seconds).
  const tsxCache = `tsx-${os.userInfo().uid}`;
  fs.symlinkSync(path.join(os.tmpdir(), tsxCache), path.join(tmp, tsxCache));
  const mark = randomBytes(6).toString('hex');
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: tmp, CHAOSLUA_TMPDIR: tmp, CHAOSLUA_TEST_MARK: mark, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  const ended = new Promise<CliRun>((resolve, reject) => {
    let exit: Omit<CliRun, 'stdout' | 'stderr'> | undefined;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // Looked at the moment of the exit, with no grace: the CLI must have waited for its children.
      const processesLeft = marked(mark);
      const filesLeft = [
        ...fs
          .readdirSync(tmp)
          .filter((f) => f !== tsxCache)
          .map((f) => `tmp/${f}`),
        ...fs.readdirSync(cwd).map((f) => `cwd/${f}`),
      ];
      for (const line of processesLeft) kill(Number(line.split(' ')[0]));
      exit = { code, signal, ms: Date.now() - started, timedOut, processesLeft, filesLeft };
    });
    // After the exit, once its output is all read.
    child.once('close', () => {
      fs.rmSync(base, { recursive: true, force: true });
      resolve({ ...exit!, stdout, stderr });
    });
  });
  return { pid: child.pid!, mark, tmp, cwd, ended };
}

/** Runs the CLI to its end, or to its deadline. */
export function runCli(
  args: readonly string[],
  options: { deadlineMs: number; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  return startCli(args, options).ended;
}

/** Live processes (not zombies) whose environment holds the mark: `pid comm`. */
export function marked(mark: string): string[] {
  const needle = `CHAOSLUA_TEST_MARK=${mark}\0`;
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X')
        found.push(`${entry} ${fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim()}`);
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return found;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}
