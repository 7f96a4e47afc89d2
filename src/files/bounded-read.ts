import fs from 'node:fs';

/**
 * Every file the CLI reads (a history, a certificate, a counterexample or corpus entry, a Lua
 * script, a module) is read here, under a size bound, so that no input can make a command read
 * forever or die in an allocation: /dev/zero, a FIFO nobody writes, /proc/kcore, a 20 GiB file.
 * A regular file is refused from its fstat size before a byte is read; anything without a size (a
 * FIFO, a character device, a /proc file) is read up to bound + 1 bytes, and a FIFO or device that
 * gives nothing for the wait below is refused. Opening never blocks (O_NONBLOCK: opening a FIFO's
 * read end otherwise waits for a writer, unbounded and deaf to signals).
 */

/** The kinds of file read, each with its bound in MiB (far above any real one). */
export const INPUT_BOUNDS_MIB = {
  history: 64,
  counterexample: 64,
  'corpus entry': 64,
  certificate: 16,
  'Lua script': 4,
  module: 16,
} as const;
export type InputKind = keyof typeof INPUT_BOUNDS_MIB;

/** Sets every bound, in MiB; a V8 string holds at most 512 Mi characters, so no more than that. */
export const MAX_INPUT_ENV = 'CHAOSLUA_MAX_INPUT_MB';
const MOST_INPUT_MIB = 512;
/** How long a FIFO or device may give nothing before it is refused, in ms. */
export const READ_WAIT_ENV = 'CHAOSLUA_READ_WAIT_MS';
const DEFAULT_READ_WAIT_MS = 10_000;
const MIB = 1024 * 1024;

/** An input refused for its size, its type or its silence (exit 2 at the CLI); the message names the file. */
export class InputLimitError extends Error {
  override readonly name = 'InputLimitError';
}

/** The bound on a kind of input, in bytes, from CHAOSLUA_MAX_INPUT_MB when set. */
export function inputBound(kind: InputKind): number {
  return envInteger(MAX_INPUT_ENV, 1, MOST_INPUT_MIB, 'a whole number of MiB') ?? INPUT_BOUNDS_MIB[kind] * MIB;
}

function envInteger(name: string, min: number, max: number, what: string, unit = MIB): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new InputLimitError(`${name}=${shown(text)}: expected ${what}, ${min}-${max}`);
  return n * unit;
}

/** A value as typed, cut to 40 characters with its length when longer. */
function shown(text: string): string {
  return text.length > 40
    ? `${JSON.stringify(text.slice(0, 40))}... (${text.length} characters)`
    : JSON.stringify(text);
}

/** `<file>: larger than 64 MiB, the bound on a history (CHAOSLUA_MAX_INPUT_MB raises it, up to 512)`. */
function tooLarge(file: string, kind: InputKind, bound: number, size?: number): InputLimitError {
  const what =
    size === undefined
      ? `larger than ${bound / MIB} MiB`
      : `${(size / MIB).toFixed(1)} MiB, larger than ${bound / MIB} MiB`;
  return new InputLimitError(
    `${file}: ${what}, the bound on a ${kind} (${MAX_INPUT_ENV}=N raises it to N MiB, up to ${MOST_INPUT_MIB})`,
  );
}

/**
 * The file's bytes, at most the kind's bound. Errors of the system (ENOENT, EACCES) are thrown as
 * they come, for the caller to word; the limits as InputLimitError.
 */
export function readBounded(file: string, kind: InputKind): Buffer {
  const bound = inputBound(kind);
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new InputLimitError(`${file}: is a directory, not a ${kind} file`);
    if (stat.isFile() && stat.size > bound) throw tooLarge(file, kind, bound, stat.size);
    return readUpTo(
      fd,
      file,
      kind,
      bound,
      stat.isFile() ? undefined : (envInteger(READ_WAIT_ENV, 1, 3_600_000, 'milliseconds', 1) ?? DEFAULT_READ_WAIT_MS),
    );
  } finally {
    fs.closeSync(fd);
  }
}

/** readBounded as UTF-8 text. */
export function readBoundedText(file: string, kind: InputKind): string {
  return readBounded(file, kind).toString('utf8');
}

/**
 * For a file that code outside the CLI's reach will read itself: refused unless it is a regular
 * file within the bound (checked with fstat, no byte read).
 */
export function checkBoundedFile(file: string, kind: InputKind): void {
  const bound = inputBound(kind);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return; // missing or unreadable: the reader says so in its own words
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new InputLimitError(`${file}: not a regular file (a ${kind} must be one)`);
    if (stat.size > bound) throw tooLarge(file, kind, bound, stat.size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads until end of file, or refuses past `bound` bytes or after `waitMs` without a byte (waitMs undefined: a regular file, which never waits). */
function readUpTo(fd: number, file: string, kind: InputKind, bound: number, waitMs: number | undefined): Buffer {
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(Math.min(bound + 1, MIB));
  let total = 0;
  let quietSince = Date.now();
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, bound + 1 - total), null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      n = -1; // a writer is there, with nothing yet
    }
    if (n > 0) {
      chunks.push(Buffer.from(buffer.subarray(0, n)));
      total += n;
      if (total > bound) throw tooLarge(file, kind, bound);
      quietSince = Date.now();
      continue;
    }
    // End of file: for a FIFO with nothing read yet, 0 also means "no writer yet", so it waits.
    if (n === 0 && (waitMs === undefined || total > 0 || !isFifo(fd))) break;
    if (Date.now() - quietSince > waitMs!) {
      throw new InputLimitError(
        `${file}: nothing came from it for ${waitMs! / 1000} s (a FIFO or device nobody writes; ${READ_WAIT_ENV} sets the wait)`,
      );
    }
    sleep(10);
  }
  return Buffer.concat(chunks, total);
}

function isFifo(fd: number): boolean {
  return fs.fstatSync(fd).isFIFO();
}

/** Blocks the thread for `ms`: the reads above are synchronous, as their callers are. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
