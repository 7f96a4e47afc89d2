/**
 * The clock preload (native/clockshift.c) as a shared library: built with the C compiler on first
 * use into the tools folder, and again whenever its source is newer, so a checkout and an installed
 * package get it the same way and no prebuilt binary ships. Every server and every client process
 * whose clock a run may move is started with it (LD_PRELOAD) and a page of its own (./page.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLOCK_SOURCE = path.join(ROOT, 'native', 'clockshift.c');
const LIBRARY = path.join(ROOT, '.tools', 'lib', 'chaoslua-clock.so');

/** Why the library cannot be had here (no compiler, a failed build), for the one line that says so. */
export class ClockLibraryError extends Error {
  override readonly name = 'ClockLibraryError';
}

let built: string | undefined;

/** The preload's path, built if missing or older than its source. Throws ClockLibraryError. */
export function clockLibrary(): string {
  if (built) return built;
  const fresh = fs.existsSync(LIBRARY) && fs.statSync(LIBRARY).mtimeMs >= fs.statSync(CLOCK_SOURCE).mtimeMs;
  if (!fresh) build();
  built = LIBRARY;
  return LIBRARY;
}

function build(): void {
  const cc = process.env.CC || 'cc';
  fs.mkdirSync(path.dirname(LIBRARY), { recursive: true });
  // Built beside its final name and renamed, so a process started meanwhile never maps half a file.
  const partial = `${LIBRARY}.${process.pid}.tmp`;
  const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', '-o', partial, CLOCK_SOURCE, '-ldl'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.error || r.status !== 0) {
    fs.rmSync(partial, { force: true });
    const why = r.error ? r.error.message : (r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`);
    throw new ClockLibraryError(
      `the clock faults need a C compiler to build ${path.relative(ROOT, CLOCK_SOURCE)} (${cc}: ${why}); install one (apt-get install gcc) or leave the clock faults out of --faults`,
    );
  }
  fs.renameSync(partial, LIBRARY);
}
