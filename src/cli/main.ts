import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../cluster/binaries.ts';
import { EnvironmentError, ClusterUsageError } from '../cluster/errors.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { InputLimitError } from '../files/bounded-read.ts';
import { helpFooter } from './help.ts';
import { cutLong, printable } from './printable.ts';
import { processIo, type Command, type Io } from './io.ts';
import { loadPatternFiles } from './pattern-file.ts';

/** Commands load lazily so `chaoslua lint` does not pay for ioredis and fast-check. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  cluster: {
    summary: 'start a local cluster behind Toxiproxy and keep it up until Ctrl-C',
    load: () => import('./cluster.ts'),
  },
  certify: {
    summary: 'certify an implementation (lua:DIR, module:PATH or cmd:COMMAND) under chaos',
    load: () => import('./certify.ts'),
  },
  run: {
    summary: 'chaos-test the bundled reference implementation (random schedules + faults, checked)',
    load: () => import('./run.ts'),
  },
  check: {
    summary: 'check a recorded history (chaoslua JSON, Jepsen EDN, Porcupine logs) for linearizability',
    load: () => import('./check.ts'),
  },
  export: {
    summary: "write a recorded history in Porcupine's or Jepsen's format, to cross-check with other tools",
    load: () => import('./export.ts'),
  },
  merge: {
    summary: "combine the certificates of 'certify --shard k/n' jobs into one verdict",
    load: () => import('./merge.ts'),
  },
  corpus: {
    summary: 'list or prune the regression corpus (counterexamples replayed before every certify and run)',
    load: () => import('./corpus.ts'),
  },
  replay: {
    summary: 're-check a counterexample file, and re-run its schedule against a live cluster',
    load: () => import('./replay.ts'),
  },
  scenario: {
    summary: "reproduce a row of the seeds' failure tables: broken variant, fault, alert, remediation",
    load: () => import('./scenario.ts'),
  },
  report: { summary: 'open or serve the HTML reports of past runs', load: () => import('./report.ts') },
  lint: {
    summary: 'static checks on Redis Lua scripts (keys, loops, globals, owner checks)',
    load: () => import('./lint.ts'),
  },
  install: {
    summary: 'install what a local cluster needs and is missing: redis-server >= 7, the Toxiproxy server',
    load: () => import('./install.ts'),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: chaoslua <command> [options]

Certify implementations of atomic Redis Lua state machines against a real Redis Cluster,
with faults, checked against a reference model.

commands:
${lines.join('\n')}

Run 'chaoslua <command> --help' for a command's options; --debug (any command) prints the stack
trace of an internal error.
exit codes: 0 ok/certified, 1 not certified or findings, 2 usage error, 3 environment failure
${helpFooter()}`;
}

function version(): string {
  // package.json is beside src/ in a checkout and beside dist/ in the package.
  const file = [path.join(projectRoot, 'package.json'), path.join(projectRoot, '..', 'package.json')].find((f) =>
    existsSync(f),
  );
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : 'unknown';
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  // --debug is the CLI's, not a command's: taken out before the command parses its flags.
  const debug = argv.includes('--debug') || process.env.CHAOSLUA_DEBUG === '1';
  const [name, ...rest] = argv.filter((a) => a !== '--debug');
  if (name === undefined) {
    io.stderr.write(help());
    return EXIT.usage;
  }
  if (name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(help());
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`chaoslua ${version()}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS[name];
  try {
    if (!entry) throw new UsageError(`unknown command '${name}' (try 'chaoslua --help')`);
    const command = await entry.load();
    return await command.run(await loadPatternFiles(rest), io);
  } catch (error) {
    const message = cutLong(printable((error as Error).message?.split('\n')[0] ?? String(error)));
    // A file refused for its size or its silence is the user's input, whichever reader met it.
    if (error instanceof UsageError || error instanceof ClusterUsageError || error instanceof InputLimitError) {
      io.stderr.write(`chaoslua: ${message}\n`);
      return EXIT.usage;
    }
    if (error instanceof EnvironmentError) {
      io.stderr.write(`chaoslua: environment: ${message}\n`);
      return EXIT.environment;
    }
    return internalError(name, error, debug, io);
  }
}

/**
 * An error no command anticipated: one line naming the command, never a stack trace unless asked
 * for. Exit 3 when the system refused something (a file, a port, a process: an errno code), since
 * that is the environment; 1 otherwise, as for any run that did not certify.
 */
export function internalError(command: string, error: unknown, debug: boolean, io: Io): number {
  const err = error instanceof Error ? error : new Error(String(error));
  const first = cutLong(printable((err.message ?? '').split('\n')[0].trim() || err.name || 'unknown error'));
  const environment = isSystemError(err);
  io.stderr.write(
    `chaoslua ${command}: ${environment ? 'environment' : 'internal error'}: ${first}${debug ? '' : ' (rerun with --debug for the stack trace)'}\n`,
  );
  if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
  return environment ? EXIT.environment : EXIT.failed;
}

/** Node's system errors carry an errno code (ENOENT, EACCES, EADDRINUSE, ...) and the syscall. */
function isSystemError(error: Error): boolean {
  const e = error as { code?: unknown; syscall?: unknown; errno?: unknown };
  return typeof e.syscall === 'string' || (typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code));
}
