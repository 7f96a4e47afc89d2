import path from 'node:path';
import { check } from '../checker/index.ts';
import { describeViolation } from '../checker/describe.ts';
import type { CheckResult } from '../checker/types.ts';
import type { History } from '../history/types.ts';
import { detectFormat, FORMATS, FormatError, isHistoryFormat, ModelChoiceError, readHistory } from '../ingest/index.ts';
import { checkableModels, checkableSpec } from '../patterns/checkable.ts';
import { writeCheckFolder } from '../report/check-folder.ts';
import { REPORT_FILE } from '../report/html/data.ts';
import { passes } from '../certify/chaos.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { checkReportDir } from './out-file.ts';
import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';
import { processIo, type Io } from './io.ts';

export const summary = 'check a recorded history (chaoslua JSON, Jepsen EDN, Porcupine logs) for linearizability';

export const HELP = `usage: chaoslua check FILE [--model NAME] [--format F] [options]

Check a history recorded anywhere for linearizability against a model, key by key, and say
why not: the verdict, the invariant broken, its witness operations and a minimal violating
sub-history, as 'replay --no-rerun' gives them; a report folder with report.html.

formats (detected from the first line when --format is not given):
  chaoslua        counterexample.json (its history; its pattern is the model) or a bare {"ops": [...]}
  jepsen          Jepsen EDN, one operation map per line or one vector of them:
                  {:process P, :type :invoke|:ok|:fail|:info, :f F, :value V[, :key K][, :time ns]}
                  :fail did not take effect; :info (or no completion) may or may not have
  porcupine-etcd  Porcupine's etcd logs (model register): ':fail :cas' is a cas that ran and
                  answered false; ':fail :read :timed-out' is a read with unknown outcome
  porcupine-kv    Porcupine's kv logs (model kv): {:process P, :type :invoke|:ok, :f :get|:put|:append, ...}

models: ${Object.keys(checkableModels).join(', ')}
  register  read / write / cas on one register (nil until written); Jepsen :f :read, :write v, :cas [from to]
  kv        get / put / append of a string per :key ("" until written)
  the Redis patterns read Jepsen maps as :f OP, :value {argument map}

options:
  --model NAME    the model (default: the one porcupine-etcd, porcupine-kv and a counterexample imply;
                  required for jepsen and a bare chaoslua history)
  --format F      ${FORMATS.join(' | ')} (default: detected from the first line)
  --report DIR    where the run folder goes (default reports/)
  --no-report     print only; write no folder (default: off)
  --json          print the outcome as JSON (default: off)
  -h, --help      this text

A history with no client operation is valid (as Knossos judges it): verdict ok, exit 0.
exit codes: 0 linearizable, 1 not linearizable or undecided (unknown), 2 usage or malformed input,
3 the report folder could not be written
${helpFooter('check')}`;

export const FLAGS = {
  model: { type: 'string' },
  format: { type: 'string' },
  report: { type: 'string' },
  'no-report': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('check', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(`check: expected one history file, got ${positionals.length}`);
  const file = positionals[0];
  if (!values['no-report']) checkReportDir('check', values.report ?? 'reports');
  const checked = checkFile(file, values.format, values.model);
  const { result } = checked;
  const passed = passes(result);
  const dir = values['no-report']
    ? undefined
    : writeCheckFolder(values.report ?? 'reports', { ...checked, file, passed });
  if (values.json) {
    io.stdout.write(
      JSON.stringify(
        {
          verdict: result.verdict,
          format: checked.format,
          model: checked.model,
          stats: result.stats,
          keys: result.keys.filter((k) => k.verdict !== 'ok'),
          violations: result.violations,
          duplicateEffects: result.duplicateEffects,
          report: dir && path.join(dir, REPORT_FILE),
        },
        null,
        2,
      ) + '\n',
    );
  } else io.stdout.write(checkText(file, checked, dir));
  return passed ? EXIT.ok : EXIT.failed;
}

export interface CheckedHistory {
  readonly format: string;
  readonly model: string;
  readonly history: History;
  readonly result: CheckResult;
}

/** The `check` code path without printing: read, detect, parse, check. Malformed input is a UsageError. */
export function checkFile(file: string, formatFlag?: string, modelFlag?: string): CheckedHistory {
  if (formatFlag !== undefined && !isHistoryFormat(formatFlag))
    throw new UsageError(`check: --format must be one of ${FORMATS.join(', ')}, got '${formatFlag}'`);
  let text: string;
  try {
    text = readBoundedText(file, 'history');
  } catch (error) {
    if (error instanceof InputLimitError) throw new UsageError(`check: ${error.message}`);
    throw new UsageError(
      `check: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const format = formatFlag ?? detectFormat(text);
  if (format === undefined || !isHistoryFormat(format)) {
    throw new UsageError(
      `check: ${file}: cannot tell the format from its first line; name it with --format (${FORMATS.join(', ')})`,
    );
  }
  try {
    const { history, model } = readHistory(file, text, format, modelFlag);
    return { format, model, history, result: check(history, checkableSpec(model)) };
  } catch (error) {
    if (error instanceof FormatError) throw new UsageError(`check: ${error.message}`);
    if (error instanceof ModelChoiceError) throw new UsageError(`check: ${error.message}`);
    throw error;
  }
}

function checkText(file: string, checked: CheckedHistory, dir: string | undefined): string {
  const { result } = checked;
  const s = result.stats;
  const lines = [
    `check of ${file} (${checked.format}, model ${checked.model}): ${result.verdict}`,
    `  ${s.ops} ops on ${s.keys} key(s), ${s.statesExplored} search states (at most ${s.maxKeyStates ?? 0} on one key), ${(s.ms / 1000).toFixed(2)} s`,
  ];
  if (s.ops === 0) lines.push('  no client operations: an empty history is valid (as Knossos and Porcupine judge it)');
  for (const v of result.violations) lines.push(describeViolation(v));
  for (const k of result.keys)
    if (k.verdict === 'unknown') lines.push(`unknown on key ${JSON.stringify(k.key)}: ${k.note ?? 'undecided'}`);
  for (const loss of result.replicationLosses)
    lines.push(`replication loss on key ${JSON.stringify(loss.key)}: ${loss.message}`);
  if (dir) lines.push(`report: ${path.join(dir, REPORT_FILE)}`);
  return lines.join('\n') + '\n';
}
