import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { COUNTEREXAMPLE_FILE, REPORT_FILE, RESULT_FILE } from '../report/html/data.ts';
import { serveReports } from '../report/html/serve.ts';
import { writeReportFiles } from '../report/html/write.ts';
import { listRuns } from '../report/index-page.ts';
import { intFlag, parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';
import { fileKind, makeDirectory, probeOutput } from './out-file.ts';

export const summary = "open a run's HTML report, or serve reports/ on 127.0.0.1";

const DEFAULT_PORT = 8765;

export const HELP = `usage: chaoslua report open [RUN] [--report DIR]
       chaoslua report serve [--port N] [--report DIR]

open   print the path of reports/RUN/report.html (the newest run when RUN is omitted), writing it
       first if missing; opens it with xdg-open when a display is available.
serve  serve the reports folder on http://127.0.0.1:N/ until Ctrl-C (index rebuilt on each visit).

options:
  --report DIR   where run folders are (default reports/)
  --port N       serve: port on 127.0.0.1, 0 for any free one (default ${DEFAULT_PORT})
  -h, --help     this text
${helpFooter('report')}`;

export const FLAGS = {
  report: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    (sub === undefined ? io.stderr : io.stdout).write(HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub === 'open') return open(rest, io);
  if (sub === 'serve') return serve(rest, io);
  throw new UsageError(`report: unknown subcommand '${sub}' (expected open or serve)`);
}

async function open(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('report open', argv, { report: FLAGS.report, help: FLAGS.help }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError(`report open: one run at most, got ${positionals.length}`);
  const root = path.resolve(values.report ?? 'reports');
  // A folder to read from: a file or a device given for it is the user's slip (exit 2), not the environment.
  const kind = fileKind(root);
  if (kind !== undefined && kind !== 'a directory')
    throw new UsageError(`report open: --report ${values.report}: is ${kind}, not a directory`);
  const dir = runFolder(root, positionals[0]);
  const file = path.join(dir, REPORT_FILE);
  if (!fs.existsSync(file)) writeReportFiles(dir);
  io.stdout.write(`${file}\n`);
  if (process.env.DISPLAY) {
    // Best effort: no xdg-open, or one that fails, still leaves the printed path.
    const child = spawn('xdg-open', [file], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  }
  return EXIT.ok;
}

/** reports/<RUN>, or RUN as a path, or the newest run; a UsageError naming what is missing. */
function runFolder(root: string, run: string | undefined): string {
  if (run === undefined) {
    const [newest] = listRuns(root);
    if (!newest) throw new UsageError(`report open: no run folders under ${root}`);
    return path.join(root, newest.name);
  }
  const candidates = [path.join(root, run), path.resolve(run)];
  const dir = candidates.find((d) => fs.existsSync(d) && fs.statSync(d).isDirectory());
  if (!dir) throw new UsageError(`report open: no run '${run}' under ${root}`);
  if (![RESULT_FILE, COUNTEREXAMPLE_FILE].some((f) => fs.existsSync(path.join(dir, f)))) {
    throw new UsageError(`report open: ${dir} is not a run folder (no ${RESULT_FILE} or ${COUNTEREXAMPLE_FILE})`);
  }
  return dir;
}

async function serve(argv: string[], io: Io): Promise<number> {
  const { values } = parse('report serve', argv, FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const port = intFlag('report serve', 'port', values.port, DEFAULT_PORT, 0, 65_535);
  const root = probeOutput('report serve', 'report', values.report ?? 'reports', 'directory');
  makeDirectory(root);
  let server;
  try {
    server = await serveReports(root, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES')
      throw new UsageError(`report serve: cannot listen on 127.0.0.1:${port} (${code}); try --port 0`);
    throw error;
  }
  io.stdout.write(`serving ${root} at ${server.url} (Ctrl-C to stop)\n`);
  await untilSignal();
  await server.close();
  return EXIT.ok;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
