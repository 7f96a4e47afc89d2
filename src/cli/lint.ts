import { stat } from 'node:fs/promises';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { InputLimitError } from '../files/bounded-read.ts';
import { helpFooter } from './help.ts';
import { printable } from './printable.ts';
import { type Io, processIo } from './io.ts';
import { RULES, formatFinding, isError, lintFiles, luaFilesAt } from '../lint/index.ts';

export const summary = 'static checks on Redis Lua scripts';

export const FLAGS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function usage(): string {
  const width = Math.max(...RULES.map((rule) => rule.id.length));
  const rules = RULES.map((rule) => `  ${rule.id.padEnd(width)}  ${rule.severity === 'advice' ? '(advice) ' : ''}${rule.description}`);
  return `usage: chaoslua lint DIR|FILE... [--json]

Parses Redis Lua scripts (Lua 5.1, and Functions libraries starting with #!lua) and reports
each finding as 'file:line:col rule message'. A directory means every *.lua under it.
An error is what breaks on a cluster or can hang a node, and refuses a certificate; advice
('rule (advice)') is safe under Redis 7 effects replication or a heuristic the chaos run judges,
and is shown on the certificate without refusing it.

options:
  --json      print the findings as a JSON array instead of one line each (default: off)
  -h, --help  print this help

rules:
${rules.join('\n')}

exit codes: 0 no errors (advice only, or nothing), 1 errors, 2 usage error
${helpFooter('lint')}`;
}

/** Every .lua file named on the command line; a missing path or an empty directory is a usage error. */
async function collectFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const exists = await stat(path).then(() => true, () => false);
    if (!exists) throw new UsageError(`lint: no such file or directory: ${path}`);
    const found = await luaFilesAt(path);
    if (found.length === 0) throw new UsageError(`lint: no .lua file under ${path}`);
    files.push(...found);
  }
  return [...new Set(files)];
}

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  try {
    const { values, positionals } = parse('lint', argv, FLAGS, true);
    if (values.help) {
      io.stdout.write(usage());
      return EXIT.ok;
    }
    if (positionals.length === 0) throw new UsageError('lint: no path given (usage: chaoslua lint DIR|FILE... [--json])');
    const files = await collectFiles(positionals);
    const findings = await lintFiles(files).catch((error: unknown) => {
      throw error instanceof InputLimitError ? new UsageError(`lint: ${error.message}`) : error;
    });
    if (values.json) io.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
    else for (const finding of findings) io.stdout.write(`${formatFinding(finding)}\n`);
    const fileCount = `${files.length} file${files.length === 1 ? '' : 's'}`;
    const errors = findings.filter(isError).length;
    const advice = findings.length - errors;
    const split = advice === 0 ? '' : ` (${errors} error${errors === 1 ? '' : 's'}, ${advice} advice)`;
    io.stderr.write(findings.length === 0
      ? `chaoslua lint: ${fileCount}, no findings\n`
      : `chaoslua lint: ${findings.length} finding${findings.length === 1 ? '' : 's'}${split} in ${fileCount}\n`);
    return errors === 0 ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`chaoslua ${printable(error.message)}\n`);
    return EXIT.usage;
  }
}
