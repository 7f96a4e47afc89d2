import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './exit-codes.ts';

/**
 * Every path a command will write (certify, run, check and scenario --report, certify --corpus,
 * export --out, merge --out and --junit, report serve --report) is probed here, before any work,
 * and refused as a usage error naming the flag and the path (exit 2). The probe does a bounded
 * number of system calls, none of which can block: a stat per missing component, then one
 * directory or file made and removed where the command will write. It never asks access(2),
 * which tells root that /proc is writable, and never makes folders recursively, since Node's
 * recursive mkdir spins forever on /proc (it makes the parent, the kernel answers ENOENT for the
 * child, and it makes the parent again), deaf to SIGTERM.
 */

/** Pseudo-filesystems: nothing written there is a file, and some writes there never return. */
const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];
/** statfs(2) magic numbers of the same, wherever they are mounted: proc, sysfs, cgroup, cgroup2, debugfs, securityfs, tracefs, devpts, bpf. */
const PSEUDO_MAGIC = new Set([
  0x9fa0, 0x62656572, 0x27e0eb, 0x63677270, 0x64626720, 0x73636673, 0x74726163, 0x1cd1, 0xcafe4a11,
]);
/** Devices a file flag may name: the output then goes nowhere or to the terminal, as the user asked. */
const WRITABLE_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** A path the command writes: a folder it makes run folders in, or one file. */
export type OutputKind = 'directory' | 'file';

/** The flag's path resolved, or a UsageError `<command>: --<flag> <path>: <why>`. */
export function probeOutput(command: string, flag: string, given: string, kind: OutputKind): string {
  const resolved = path.resolve(given);
  const problem = outputProblem(resolved, kind);
  if (problem) throw new UsageError(`${command}: --${flag} ${given}: ${problem}`);
  return resolved;
}

/** Why `target` cannot be written as a `kind`, or undefined. Exported for the tests. */
export function outputProblem(target: string, kind: OutputKind): string | undefined {
  if (kind === 'file' && WRITABLE_DEVICES.has(target)) return undefined;
  const pseudo = pseudoRoot(target);
  if (pseudo) return `is under ${pseudo}, a pseudo-filesystem; name a folder on disk`;
  const { existing, stat, error } = nearestExisting(target);
  if (error) return `${existing === target ? 'cannot be read' : `${existing} cannot be read`} (${error})`;
  // Symbolic links are followed: where they lead must not be a pseudo-filesystem either.
  const real = realPath(existing);
  const pseudoReal = pseudoRoot(real) ?? (onPseudoFilesystem(real) ? real : undefined);
  if (pseudoReal)
    return `${existing === target ? 'is' : `${existing} is`} on a pseudo-filesystem (${pseudoReal}); name a folder on disk`;
  if (existing === target) {
    if (kind === 'file') {
      if (stat!.isDirectory()) return 'is a directory; name a file to write';
      if (!stat!.isFile()) return `is ${fileType(stat!)}, not a regular file; name a file to write`;
      return writeProblem(
        () =>
          fs.closeSync(fs.openSync(target, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NONBLOCK)),
        'is',
      );
    }
    if (!stat!.isDirectory()) return `is ${fileType(stat!)}, not a directory`;
  } else if (!stat!.isDirectory()) {
    return `${existing} is ${fileType(stat!)}, not a directory`;
  }
  // Make, then remove, what the command will make: a folder, or a file beside the one it writes.
  const prefix = path.join(existing, `.chaoslua-probe-${process.pid}-`);
  const who = existing === target ? 'is' : `${existing} is`;
  if (kind === 'file' && existing === path.dirname(target)) {
    const probe = `${prefix}${Math.random().toString(36).slice(2, 10)}`;
    return writeProblem(() => {
      fs.closeSync(fs.openSync(probe, 'wx'));
      fs.unlinkSync(probe);
    }, who);
  }
  return writeProblem(() => fs.rmdirSync(fs.mkdtempSync(prefix)), who);
}

/** The folders missing below `dir`, made one at a time: never a loop, whatever the filesystem answers. */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let probe = path.resolve(dir);
  while (!isDirectory(probe)) {
    missing.unshift(probe);
    const parent = path.dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(folder)) throw error;
    }
  }
}

/** Writes a probed out-file, making its folder first. */
export function writeOutFile(file: string, text: string): void {
  const resolved = path.resolve(file);
  if (!WRITABLE_DEVICES.has(resolved)) makeDirectory(path.dirname(resolved));
  fs.writeFileSync(resolved, text);
}

/** export --out, merge --out and --junit: a file probed before any work. */
export function checkOutFile(command: string, flag: string, file: string): void {
  probeOutput(command, flag, file, 'file');
}

/** check and scenario --report DIR: where run folders go, probed as certify probes its own. */
export function checkReportDir(command: string, dir: string): string {
  return probeOutput(command, 'report', dir, 'directory');
}

function pseudoRoot(target: string): string | undefined {
  return PSEUDO_ROOTS.find((root) => target === root || target.startsWith(`${root}/`));
}

function onPseudoFilesystem(dir: string): boolean {
  try {
    return PSEUDO_MAGIC.has(Number(fs.statfsSync(dir).type));
  } catch {
    return false;
  }
}

/** The deepest existing path at or above `target` (a stat per component, at most). */
function nearestExisting(target: string): { existing: string; stat?: fs.Stats; error?: string } {
  let probe = target;
  for (;;) {
    try {
      return { existing: probe, stat: fs.statSync(probe) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { existing: probe, error: code ?? (error as Error).message };
    }
    const parent = path.dirname(probe);
    if (parent === probe) return { existing: probe, error: 'ENOENT' };
    probe = parent;
  }
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function writeProblem(attempt: () => void, who: string): string | undefined {
  try {
    attempt();
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return `${who} not writable (${code})`;
    if (code === 'EROFS') return `${who} on a read-only filesystem`;
    if (code === 'ENOSPC' || code === 'EDQUOT') return `${who} on a full filesystem (${code})`;
    return `${who} not writable (${code ?? (error as Error).message.split('\n')[0]})`;
  }
}

/** What is at `p` ('a directory', 'a file', 'a FIFO', ...), or undefined when nothing is. */
export function fileKind(p: string): string | undefined {
  try {
    return fileType(fs.statSync(p));
  } catch {
    return undefined;
  }
}

function fileType(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return stat.isDirectory() ? 'a directory' : stat.isFile() ? 'a file' : 'a special file';
}
