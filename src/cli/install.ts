import { spawnSync } from 'node:child_process';
import { INSTALLER, TOOLS_BIN } from '../cluster/binaries.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';

export const summary = 'install what a local cluster needs and is missing: redis-server >= 7 and the Toxiproxy server';

export const HELP = `usage: chaoslua install [options]

Install what a local cluster needs and is missing, as the bootstrap of a checkout does: redis-server 7
or later (Debian's package, when apt-get can run as root or with sudo -n; otherwise one line saying what
to install) and the Toxiproxy server v2.12.0 (built with go install into the package's .tools/bin).
certify, run, replay, cluster up and scenario run do this themselves when a program is missing, unless
CHAOSLUA_NO_INSTALL=1. CHAOSLUA_REDIS_SERVER and CHAOSLUA_TOXIPROXY name programs to use instead.

options:
  --quiet            say nothing unless something fails (default: off)
  -h, --help         this text

exit codes: 0 ready, 3 something could not be installed (the line says what to do)
${helpFooter('install')}`;

export const FLAGS = { quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('install', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`install: unexpected argument '${positionals[0]}' (install takes no arguments)`);
  const wanted = [process.env.CHAOSLUA_REDIS_SERVER === undefined && '--redis', process.env.CHAOSLUA_TOXIPROXY === undefined && '--toxiproxy'].filter((a): a is string => !!a);
  if (wanted.length === 0) {
    io.stdout.write('chaoslua install: nothing to do (CHAOSLUA_REDIS_SERVER and CHAOSLUA_TOXIPROXY are set)\n');
    return EXIT.ok;
  }
  const r = spawnSync('bash', [INSTALLER, ...wanted, '--into', TOOLS_BIN, ...(values.quiet ? ['--quiet'] : [])], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  io.stdout.write(r.stdout ?? '');
  if (r.status === 0) return EXIT.ok;
  io.stderr.write(`chaoslua install: ${r.stderr?.trim().split('\n').pop() || (r.error?.message ?? `the installer exited with ${r.status}`)}\n`);
  return EXIT.environment;
}
