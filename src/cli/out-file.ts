import fs from 'node:fs';
import path from 'node:path';
import { unwritableDirectory } from './chaos-flags.ts';
import { UsageError } from './exit-codes.ts';

/**
 * A file a command will write (export --out, merge --out and --junit), checked before any work, as
 * certify checks --report: a directory given for it, or a folder that cannot be made or written
 * under, is a usage error naming the flag (exit 2), not an environment failure at the end. A
 * missing folder is made when the file is written.
 */
export function checkOutFile(command: string, flag: string, file: string): void {
  const resolved = path.resolve(file);
  let isDirectory = false;
  try {
    isDirectory = fs.statSync(resolved).isDirectory();
  } catch {
    /* not there yet: its folder decides */
  }
  if (isDirectory) throw new UsageError(`${command}: --${flag} ${file}: is a directory; name a file to write`);
  const folder = path.dirname(resolved);
  const problem = unwritableDirectory(folder);
  // The problem names a folder above when that is the one at fault, else it is about the folder itself.
  if (problem) throw new UsageError(`${command}: --${flag} ${file}: ${problem.startsWith(path.sep) ? problem : `${folder} ${problem}`}`);
}

/** Writes a checked out-file, making its folder first. */
export function writeOutFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text);
}

/** check --report DIR: where run folders go, checked as certify checks its own --report. */
export function checkReportDir(command: string, dir: string): void {
  const problem = unwritableDirectory(path.resolve(dir));
  if (problem) throw new UsageError(`${command}: --report ${dir}: ${problem}`);
}
