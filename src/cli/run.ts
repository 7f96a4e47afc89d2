import { parse } from './args.ts';
import { CHAOS_FLAGS, CHAOS_FLAGS_HELP, FAULTS_HELP, jobOptions } from './chaos-flags.ts';
import path from 'node:path';
import { EXIT, jobExitCode, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';
import { runJob } from '../certify/job.ts';
import { resultJson, summaryText } from '../certify/summary.ts';
import { luaDirOpener, referenceScriptsDir } from '../certify/openers/lua-dir.ts';
import { implDigest } from '../impl/impl-spec.ts';
import { CORPUS_FLAGS, CORPUS_FLAGS_HELP, corpusOption } from './gate-flags.ts';

export const summary = 'chaos-test the bundled reference implementation (random schedules + faults, checked)';

export const HELP = `usage: chaoslua run [options]

Run random concurrent schedules with faults against the bundled reference implementation on a
real cluster, check every history against the model, shrink any failure to a minimal schedule.

options:
${CORPUS_FLAGS_HELP}
${CHAOS_FLAGS_HELP}

${FAULTS_HELP}
${helpFooter('run')}`;

export const FLAGS = { ...CHAOS_FLAGS, ...CORPUS_FLAGS } as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values } = parse('run', argv, FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const options = jobOptions('run', values);
  if (options.pattern.source && !options.pattern.referenceDir) {
    throw new UsageError(
      `run: pattern ${options.pattern.name} names no reference scripts: put them in lua/ beside ${path.basename(options.pattern.source.file)}, or say where with scripts: 'DIR'`,
    );
  }
  const dir = referenceScriptsDir(options.pattern);
  const corpus = corpusOption(
    'run',
    values,
    `lua:${dir}`,
    options.pattern.name,
    implDigest({ kind: 'lua', dir }, options.pattern),
  );
  const result = await runJob(
    { ...options, implSpec: `lua:${dir}`, corpus },
    luaDirOpener(options.pattern, dir, `reference (lua:${dir})`, options.durability),
    io,
  );
  io.stdout.write(
    options.json ? JSON.stringify(resultJson(options, result), null, 2) + '\n' : summaryText(options, result),
  );
  return jobExitCode(result);
}
