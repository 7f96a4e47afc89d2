import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/**
 * The implementation's process. It must not outlive the harness, however the harness ends:
 * 1. it runs in its own process group, killed whole on close() and by an 'exit' hook (a shell
 *    command may have started grandchildren, which a plain kill of the shell would orphan);
 * 2. under `setpriv --pdeathsig SIGKILL` where available, so the kernel kills the direct child
 *    even when the harness is SIGKILLed;
 * 3. a detached watchdog shell kills the group once the harness pid is gone (covers grandchildren
 *    when the harness dies by a signal, where no 'exit' hook runs);
 * 4. the protocol asks every program to exit when its stdin closes, which happens with the harness.
 * (src/cluster/reaper.ts does 1-3 for servers, but its children get no stdin/stdout pipes.)
 */
export interface ProgramProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  readonly pid: number;
  /** Signal the whole process group; no-op once it is gone. */
  signal(signal: NodeJS.Signals): void;
  /** Stop the watchdog and forget the exit hook (after the child is gone). */
  release(): void;
}

const SETPRIV = '/usr/bin/setpriv';
const hasSetpriv = fs.existsSync(SETPRIV);

// No "--" before the negative pid: dash's kill takes -PGID as it is and rejects "--".
const WATCHDOG = `
harness="$1"; group="$2"
while kill -0 "$harness" 2>/dev/null; do
  kill -0 "-$group" 2>/dev/null || exit 0
  sleep 0.5
done
kill -KILL "-$group" 2>/dev/null
`;

const live = new Set<number>();
let hookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

function installExitHook(): void {
  if (hookInstalled) return;
  hookInstalled = true;
  process.on('exit', () => {
    for (const pid of live) killGroup(pid, 'SIGKILL');
  });
}

/**
 * Start `command` through /bin/sh (so quoting, flags and `cd x && y` work), stderr into `stderrFile`;
 * `env`, when given, is added to the harness's environment (the clock preload of one client's process).
 */
export function spawnProgram(
  command: string,
  stderrFile: string,
  cwd?: string,
  env?: Readonly<Record<string, string>>,
): ProgramProcess {
  installExitHook();
  const shell = ['/bin/sh', '-c', command];
  const [file, ...args] = hasSetpriv ? [SETPRIV, '--pdeathsig', 'SIGKILL', '--', ...shell] : shell;
  const stderr = fs.openSync(stderrFile, 'a');
  let child: ChildProcessByStdio<Writable, Readable, null>;
  try {
    // detached: the child leads a new process group, so the group can be killed as one.
    child = spawn(file, args, {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', stderr],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    }) as ChildProcessByStdio<Writable, Readable, null>;
  } finally {
    fs.closeSync(stderr);
  }
  const pid = child.pid;
  if (pid === undefined) {
    // spawn failed synchronously (e.g. no /bin/sh); the 'error' event carries why.
    return { child, pid: -1, signal: () => undefined, release: () => undefined };
  }
  live.add(pid);
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'chaoslua-process-watchdog', String(process.pid), String(pid)], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  return {
    child,
    pid,
    signal: (signal) => {
      if (live.has(pid)) killGroup(pid, signal);
    },
    release: () => {
      // The group is gone or being killed; a grandchild still holding the group id dies with it.
      killGroup(pid, 'SIGKILL');
      live.delete(pid);
      if (watchdog.pid !== undefined) {
        try {
          process.kill(watchdog.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
  };
}
