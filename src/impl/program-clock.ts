/**
 * Whether the clock preload (native/clockshift.c) can reach what a cmd: program reads of the wall
 * clock, told from the command line and the file it runs, before any process starts.
 *
 * The preload replaces the C library's clock_gettime, gettimeofday and time in a dynamically linked
 * process. It reaches the interpreters and runtimes that read the clock there (CPython's time.time,
 * Node's Date.now, the JVM's System.currentTimeMillis, Ruby, Perl, PHP) and most dynamically linked
 * programs. It cannot reach a Go program (the Go runtime reads the clock through the kernel's vDSO
 * itself, never calling the C library, cgo or not) nor a statically linked one (no dynamic loader, so
 * no LD_PRELOAD). What a shell script or a shell command line runs in the end cannot be told from
 * outside: it may exec a Go binary.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ProgramClock {
  /**
   * `c-library`: the preload reaches the program's clock; `not-reached`: it cannot (Go, static);
   * `unknown`: cannot be told from outside (a shell script, a compound command line, a file not found).
   */
  readonly reads: 'c-library' | 'not-reached' | 'unknown';
  /** In words, for the certificate: what the program is and why that answer. */
  readonly what: string;
}

/** Runtimes known to read the wall clock through the C library. */
const INTERPRETER = /^(python|pypy)(\d+(\.\d+)*)?$|^(node|nodejs|tsx|java|ruby|perl|php)$/;
const SHELL = /^(sh|bash|dash|zsh|ksh|ash)$/;
/** Shell syntax that makes the command line more than one program started with its arguments. */
const COMPOUND = /[;&|`<>]|\$\(/;

/** The program a cmd: command line starts, and whether the preload reaches its clock. */
export function programClock(command: string, cwd = process.cwd(), env = process.env): ProgramClock {
  const words = shellWords(command);
  if (!words || COMPOUND.test(unquoted(command)))
    return { reads: 'unknown', what: 'a shell command line (which program it runs in the end cannot be told)' };
  let i = 0;
  // `A=1 B=2 exec env C=3 program ...`: the assignments and wrappers before the program itself.
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || ['exec', 'env'].includes(words[i]))) i++;
  const first = words[i];
  if (first === undefined) return { reads: 'unknown', what: 'an empty command line' };
  const name = path.basename(first);
  if (name === 'go' && words[i + 1] === 'run') return goProgram('go run (it builds and runs a Go program)');
  if (INTERPRETER.test(name))
    return { reads: 'c-library', what: `${name} (reads the wall clock through the C library)` };
  if (SHELL.test(name)) return { reads: 'unknown', what: `${name} (a shell: what it runs in the end cannot be told)` };
  const file = resolveProgram(first, cwd, env.PATH ?? '');
  if (!file) return { reads: 'unknown', what: `${first} (not found from ${cwd}, so what it is cannot be told)` };
  return fileClock(file, first);
}

/** What the file at `file` (shown as `shown`) is: a script by its interpreter, an ELF by its sections. */
export function fileClock(file: string, shown = file): ProgramClock {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    return { reads: 'unknown', what: `${shown} (unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let elf: ReturnType<typeof readElf>;
  let head: Buffer;
  try {
    const read = fileReader(fd);
    head = read(0, 256);
    elf = readElf(read);
  } finally {
    fs.closeSync(fd);
  }
  if (head.subarray(0, 2).toString('latin1') === '#!') {
    const line = head.subarray(2, head.indexOf(10) === -1 ? undefined : head.indexOf(10)).toString('utf8');
    const [interpreter = '', ...rest] = line.trim().split(/\s+/);
    const viaEnv = path.basename(interpreter) === 'env' ? rest.find((w) => !w.startsWith('-')) : undefined;
    const runtime = path.basename(viaEnv ?? interpreter);
    if (INTERPRETER.test(runtime))
      return { reads: 'c-library', what: `${shown}, a ${runtime} script (reads the wall clock through the C library)` };
    if (SHELL.test(runtime))
      return {
        reads: 'unknown',
        what: `${shown}, a ${runtime} script (what it runs cannot be told: a Go program it starts would not be reached)`,
      };
    return {
      reads: 'unknown',
      what: `${shown}, a ${runtime} script (whether ${runtime} reads the C library's clock is not known)`,
    };
  }
  if (!elf) return { reads: 'unknown', what: `${shown} (neither an ELF program nor a script, so cannot be told)` };
  if (elf.go) return goProgram(`${shown}, a Go program (${elf.go})`);
  if (!elf.dynamic)
    return {
      reads: 'not-reached',
      what: `${shown}, a statically linked program (no dynamic loader, so no LD_PRELOAD: its clock cannot be moved)`,
    };
  return {
    reads: 'c-library',
    what: `${shown}, a dynamically linked program (the preload replaces its C library's clock)`,
  };
}

function goProgram(what: string): ProgramClock {
  return {
    reads: 'not-reached',
    what: `${what}: Go reads the wall clock through the kernel's vDSO, not the C library, so no preload can move it`,
  };
}

const GO_SECTIONS = ['.go.buildinfo', '.note.go.buildid'];
/** What `go build` writes at the start of the build information, found when the section headers were stripped. */
const GO_BUILDINFO_MAGIC = Buffer.from('\xff Go buildinf:', 'latin1');
const PT_INTERP = 3;

/** Bytes `[at, at + length)` of a file (fewer past its end). */
export type ByteReader = (at: number, length: number) => Buffer;

/** A reader over bytes in memory. */
export const bytesReader =
  (bytes: Buffer): ByteReader =>
  (at, length) =>
    bytes.subarray(at, at + length);

/**
 * An ELF file's two facts that matter here: a Go section (named) and a program interpreter (a dynamic
 * loader, which is what honours LD_PRELOAD). Reads the headers and the section names only, not the
 * whole program; undefined when the bytes are not ELF.
 */
export function readElf(read: ByteReader): { go?: string; dynamic: boolean } | undefined {
  const head = read(0, 64);
  if (head.length < 52 || head.readUInt32BE(0) !== 0x7f454c46) return undefined;
  const wide = head[4] === 2;
  const little = head[5] !== 2;
  const u16 = (b: Buffer, at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const word = (b: Buffer, at: number) =>
    wide ? Number(little ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at)) : u32(b, at);
  const [phoff, shoff] = wide ? [word(head, 0x20), word(head, 0x28)] : [word(head, 0x1c), word(head, 0x20)];
  const [phentsize, phnum, shentsize, shnum, shstrndx] = (
    wide ? [0x36, 0x38, 0x3a, 0x3c, 0x3e] : [0x2a, 0x2c, 0x2e, 0x30, 0x32]
  ).map((at) => u16(head, at));
  const programs = read(phoff, phnum * phentsize);
  let dynamic = false;
  for (let p = 0; (p + 1) * phentsize <= programs.length && phentsize >= 4; p++)
    if (u32(programs, p * phentsize) === PT_INTERP) dynamic = true;
  const sections: string[] = [];
  const table = shnum > 0 && shentsize >= 0x28 ? read(shoff, shnum * shentsize) : Buffer.alloc(0);
  if (shstrndx < shnum && (shstrndx + 1) * shentsize <= table.length) {
    const [offsetAt, sizeAt] = wide ? [0x18, 0x20] : [0x10, 0x14];
    const at = shstrndx * shentsize;
    const names = read(word(table, at + offsetAt), Math.min(word(table, at + sizeAt), 1 << 20));
    for (let s = 0; (s + 1) * shentsize <= table.length; s++) {
      const start = u32(table, s * shentsize);
      const end = names.indexOf(0, start);
      if (start < names.length && end !== -1) sections.push(names.toString('latin1', start, end));
    }
  }
  const section = GO_SECTIONS.find((s) => sections.includes(s));
  if (section) return { go: `its ELF has a ${section} section`, dynamic };
  // Section headers stripped (sstrip): the build information is still in the program's data.
  if (sections.length === 0 && read(0, Number.MAX_SAFE_INTEGER).includes(GO_BUILDINFO_MAGIC))
    return { go: "its ELF carries Go's build information", dynamic };
  return { dynamic };
}

/** A reader over an open file. */
function fileReader(fd: number): ByteReader {
  const size = fs.fstatSync(fd).size;
  return (at, length) => {
    const n = Math.max(0, Math.min(length, size - at));
    const out = Buffer.alloc(n);
    if (n > 0) fs.readSync(fd, out, 0, n, at);
    return out;
  };
}

/** The file a command's first word runs: a path as given (from `cwd`), or the first match on PATH. */
function resolveProgram(word: string, cwd: string, searchPath: string): string | undefined {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (word.includes('/')) {
    const file = path.resolve(cwd, word);
    return executable(file) ? file : undefined;
  }
  return searchPath
    .split(':')
    .filter(Boolean)
    .map((dir) => path.resolve(cwd, dir, word))
    .find(executable);
}

/** The command line with its quoted parts blanked, so shell syntax inside quotes is not taken for syntax. */
function unquoted(command: string): string {
  return command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\./g, (m) => ' '.repeat(m.length));
}

/** A command line's words as the shell would split a simple command (quotes and backslashes); undefined if unbalanced. */
export function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (/\s/.test(c)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) return undefined;
      current = (current ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < command.length && command[j] !== '"'; j++) text += command[j] === '\\' ? command[++j] : command[j];
      if (j >= command.length) return undefined;
      current = (current ?? '') + text;
      i = j;
    } else if (c === '\\') {
      current = (current ?? '') + (command[++i] ?? '');
    } else current = (current ?? '') + c;
  }
  if (current !== undefined) words.push(current);
  return words;
}
