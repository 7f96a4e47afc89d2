import fs from 'node:fs';
import path from 'node:path';
import { toJepsen } from '../export/jepsen.ts';
import { ExportError, toPorcupine } from '../export/porcupine.ts';
import { detectFormat, FormatError, isHistoryFormat, ModelChoiceError, readHistory } from '../ingest/index.ts';
import { COUNTEREXAMPLE_FILE } from '../report/html/data.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { checkOutFile, writeOutFile } from './out-file.ts';
import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';
import { processIo, type Io } from './io.ts';

export const summary = "write a recorded history in Porcupine's or Jepsen's format, to cross-check with other tools";

export const HELP = `usage: chaoslua export RUN --format porcupine|jepsen [--out FILE] [--model NAME]

Write the history of RUN — a run folder under reports/ (its counterexample.json), a
counterexample.json, or any history 'chaoslua check' reads — in another tool's format.

formats:
  jepsen      EDN, one operation map per line, :time in ns; any model. Redis patterns write
              :f OP and :value {arguments}; a register cas that answered false is written
              :fail with :error :cas-mismatch (Knossos reads it as not taking effect).
  porcupine   Porcupine's etcd log (model register, one key, non-negative integers) or kv log
              (model kv, strings without quotes or backslashes). Failed operations are left out.

options:
  --format F    porcupine | jepsen (required; no default)
  --out FILE    write there, making its folder (default: standard output)
  --model NAME  the model (default: the one RUN's format implies; required when it implies none)
  -h, --help    this text

exit codes: 0 written, 2 usage, malformed input, or a history the format cannot hold
${helpFooter('export')}`;

export const FLAGS = {
  format: { type: 'string' },
  out: { type: 'string' },
  model: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('export', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(`export: expected one run folder or history file, got ${positionals.length}`);
  if (values.format !== 'porcupine' && values.format !== 'jepsen') {
    throw new UsageError(
      `export: --format must be porcupine or jepsen, got ${values.format === undefined ? 'nothing' : `'${values.format}'`}`,
    );
  }
  if (values.out !== undefined) checkOutFile('export', 'out', values.out);
  const file = historyFile(positionals[0]);
  let text: string;
  try {
    text = readBoundedText(file, 'history');
  } catch (error) {
    if (error instanceof InputLimitError) throw new UsageError(`export: ${error.message}`);
    throw new UsageError(
      `export: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const format = detectFormat(text);
  if (format === undefined || !isHistoryFormat(format))
    throw new UsageError(`export: ${file}: cannot tell the format from its first line`);
  let written: string;
  try {
    const { history, model } = readHistory(file, text, format, values.model);
    written = values.format === 'jepsen' ? toJepsen(history, model) : toPorcupine(history, model);
  } catch (error) {
    if (error instanceof FormatError || error instanceof ModelChoiceError || error instanceof ExportError) {
      throw new UsageError(`export: ${error.message}`);
    }
    throw error;
  }
  if (values.out !== undefined) writeOutFile(values.out, written);
  else io.stdout.write(written);
  return EXIT.ok;
}

/** A run folder stands for its counterexample.json: a passing run keeps no history. */
function historyFile(target: string): string {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new UsageError(`export: no such file or folder: ${target}`);
  }
  if (!stat.isDirectory()) return target;
  const file = path.join(target, COUNTEREXAMPLE_FILE);
  if (!fs.existsSync(file))
    throw new UsageError(`export: ${target} has no ${COUNTEREXAMPLE_FILE} (a passing run keeps no history to export)`);
  return file;
}
