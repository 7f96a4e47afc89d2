import { stat } from 'node:fs/promises';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { printable } from './printable.ts';
import { type Io, processIo } from './io.ts';
import { RULES, formatFinding, lintFiles, luaFilesAt } from '../lint/index.ts';

export const summary = 'static checks on Redis Lua scripts';

export const FLAGS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function usage(): string {
  const width = Math.max(...RULES.map((rule) => rule.id.length));
  const rules = RULES.map((rule) => `  ${rule.id.padEnd(width)}  ${rule.description}`);
  return `usage: chaoslua lint DIR|FILE... [--json]

Parses Redis Lua scripts (Lua 5.1, and Functions libraries starting with #!lua) and reports
each finding as 'file:line:col rule message'. A directory means every *.lua under it.

options:
  --json      print the findings as a JSON array instead of one line each (default: off)
  -h, --help  print this help

rules:
${rules.join('\n')}

exit codes: 0 no findings, 1 findings, 2 usage error
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
    const findings = await lintFiles(files);
    if (values.json) io.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
    else for (const finding of findings) io.stdout.write(`${formatFinding(finding)}\n`);
    const fileCount = `${files.length} file${files.length === 1 ? '' : 's'}`;
    io.stderr.write(findings.length === 0
      ? `chaoslua lint: ${fileCount}, no findings\n`
      : `chaoslua lint: ${findings.length} finding${findings.length === 1 ? '' : 's'} in ${fileCount}\n`);
    return findings.length === 0 ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`chaoslua ${printable(error.message)}\n`);
    return EXIT.usage;
  }
}
