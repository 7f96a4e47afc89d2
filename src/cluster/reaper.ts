import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './alive.ts';

/**
 * Nothing chaoslua starts may outlive it. Three layers, because each covers what the others cannot:
 * 1. every child is started under `setpriv --pdeathsig SIGKILL`, so the kernel kills it the moment
 *    the harness dies, even by SIGKILL;
 * 2. a detached watchdog shell polls the harness pid and, when it is gone, kills every pid listed in
 *    the run's temp dir and removes the dir (the one thing the kernel does not clean up);
 * 3. 'exit' and signal hooks kill and remove synchronously on normal exit, Ctrl-C, SIGTERM and
 *    uncaught errors, and return only once every child killed is gone (a zombie holds no port and
 *    no memory): SIGKILL is delivered, not awaited, and 24 redis-servers took 1.6 s to go after a
 *    certify sent SIGTERM had already exited, so a CI runner's next job could meet them.
 */
interface Resource {
  readonly dir: string;
  readonly pids: Set<number>;
  /** Shell lines that undo what lives outside the dir (see ReapedDir.atReap), run after the kill. */
  readonly undo: string[];
  watchdog?: ChildProcess;
}

const live = new Set<Resource>();
let hooksInstalled = false;
const hasSetpriv = fs.existsSync('/usr/bin/setpriv');

const WATCHDOG = `
parent="$1"; dir="$2"
while kill -0 "$parent" 2>/dev/null && [ -d "$dir" ]; do sleep 0.2; done
[ -d "$dir" ] || exit 0
for p in $(cat "$dir/pids" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
[ -f "$dir/undo.sh" ] && sh "$dir/undo.sh" >/dev/null 2>&1
rm -rf "$dir"
`;

export interface ReapedDir {
  readonly dir: string;
  /** Spawn a child that dies with the harness. */
  spawn(command: string, args: readonly string[], logFile?: string): ChildProcess;
  forget(pid: number): void;
  /** A shell line run when the dir is reaped, whatever way (after its children are killed): for what
   *  the kernel does not take away with the harness, e.g. network namespaces, links, rule tables. */
  atReap(line: string): void;
  /** Kill every child (SIGKILL), stop the watchdog, remove the dir. Synchronous on purpose. */
  destroy(): void;
}

/** Creates a temp dir whose children and contents are reaped whatever way the harness ends. */
export function reapedDir(prefix: string): ReapedDir {
  installHooks();
  const dir = fs.mkdtempSync(path.join(process.env.CHAOSLUA_TMPDIR ?? '/tmp', `${prefix}-`));
  const resource: Resource = { dir, pids: new Set(), undo: [] };
  live.add(resource);
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'chaoslua-watchdog', String(process.pid), dir], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  resource.watchdog = watchdog;

  const writePids = () => {
    try {
      fs.writeFileSync(path.join(dir, 'pids'), [...resource.pids].join('\n'));
    } catch {
      /* dir already removed */
    }
  };

  return {
    dir,
    spawn(command, args, logFile) {
      const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
      const [cmd, argv] = hasSetpriv
        ? ['/usr/bin/setpriv', ['--pdeathsig', 'SIGKILL', '--', command, ...args]]
        : [command, [...args]];
      const child = spawn(cmd, argv, { stdio: ['ignore', out, out] });
      if (typeof out === 'number') fs.closeSync(out);
      if (child.pid !== undefined) {
        resource.pids.add(child.pid);
        writePids();
        child.once('exit', () => {
          resource.pids.delete(child.pid!);
          writePids();
        });
      }
      return child;
    },
    forget(pid) {
      resource.pids.delete(pid);
      writePids();
    },
    atReap(line) {
      resource.undo.push(line);
      fs.writeFileSync(path.join(dir, 'undo.sh'), resource.undo.join('\n') + '\n');
    },
    destroy() {
      destroyResource(resource);
    },
  };
}

/** The longest a teardown waits for killed children to be gone: SIGKILL cannot be refused, so only a process stuck in the kernel (D state) takes it. */
const GONE_WITHIN_MS = 5_000;

function destroyResource(resource: Resource): void {
  const killed = [...resource.pids];
  for (const pid of resource.pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  resource.pids.clear();
  if (resource.undo.length > 0) {
    try {
      execFileSync('sh', ['-c', resource.undo.join('\n')], { stdio: 'ignore' });
    } catch {
      /* each line ignores its own failure; nothing more to do here */
    }
  }
  if (resource.watchdog?.pid) {
    try {
      process.kill(-resource.watchdog.pid, 'SIGKILL');
      killed.push(resource.watchdog.pid);
    } catch {
      /* already gone */
    }
  }
  untilGone(killed);
  fs.rmSync(resource.dir, { recursive: true, force: true });
  live.delete(resource);
}

/** Blocks until every pid is gone or a zombie, at most GONE_WITHIN_MS: the hooks run where nothing asynchronous will. */
function untilGone(pids: readonly number[]): void {
  const deadline = Date.now() + GONE_WITHIN_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let waiting = pids.filter(isAlive);
  while (waiting.length > 0 && Date.now() < deadline) {
    Atomics.wait(pause, 0, 0, 2);
    waiting = waiting.filter(isAlive);
  }
}

/** Synchronously reap everything still alive. Safe to call more than once. */
export function reapAll(): void {
  for (const resource of [...live]) destroyResource(resource);
}

/**
 * The signal listeners of the signal-exit package (testcontainers' proper-lockfile loads it): like
 * ours, each re-raises the signal only when it is alone. Counted as passive, or the two wait on each
 * other and a SIGTERM is swallowed (seen on `--cluster compose`: certify ran on after it).
 */
function signalExitListeners(): number {
  const host = process as unknown as Record<string | symbol, { count?: number } | undefined>;
  return (host.__signal_exit_emitter__?.count ?? 0) + (host[Symbol.for('signal-exit emitter')]?.count ?? 0);
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', reapAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = () => {
      reapAll();
      // Only take over the default behaviour (exit) when nobody else handles the signal.
      if (process.listenerCount(signal) - signalExitListeners() === 1) {
        process.removeListener(signal, handler);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, handler);
  }
}
