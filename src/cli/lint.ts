import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../cluster/binaries.ts';
import type { Finding } from '../lint/finding.ts';
import { isPatternName, knownPatternNames, patternNamed } from '../patterns/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { InputLimitError } from '../files/bounded-read.ts';
import { helpFooter } from './help.ts';
import { printable } from './printable.ts';
import { type Io, processIo } from './io.ts';
import { RULES, formatFinding, isError, lintFiles, lintTargetOf, luaFilesAt, type LintTarget } from '../lint/index.ts';
import { ClusterUsageError } from '../cluster/errors.ts';
import { parseServerSpec, resolveServer } from '../cluster/servers.ts';

export const summary = 'static checks on Redis Lua scripts';

export const FLAGS = {
  pattern: { type: 'string' },
  server: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function usage(): string {
  const width = Math.max(...RULES.map((rule) => rule.id.length));
  const rules = RULES.map(
    (rule) => `  ${rule.id.padEnd(width)}  ${rule.severity === 'advice' ? '(advice) ' : ''}${rule.description}`,
  );
  return `usage: chaoslua lint DIR|FILE... [--pattern P] [--server S] [--json]

Parses Redis Lua scripts (Lua 5.1, and Functions libraries starting with #!lua) and reports
each finding as 'file:line:col rule message'. A directory means every *.lua under it.
An error is what breaks on a cluster or can hang a node, and refuses a certificate; advice
('rule (advice)') is safe under Redis 7 effects replication or a heuristic the chaos run judges,
and is shown on the certificate without refusing it.

options:
  --pattern P a pattern name or file: each DIR must hold a script for every one of its operations
              (missing-script, an error); with no DIR, its reference scripts are linted (default: none)
  --server S  lint for this server: redis-6.2 | redis-7.0 | redis-7.4 | redis-8.2 | valkey-8.1 or a path
              (its --version decides: '#!lua' lines do not compile before 7.0) (default: Redis 7)
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
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) throw new UsageError(`lint: no such file or directory: ${path}`);
    const found = await luaFilesAt(path);
    if (found.length === 0) throw new UsageError(`lint: no .lua file under ${path}`);
    files.push(...found);
  }
  return [...new Set(files)];
}

/** The server `--server` names, resolved (installed on first use) to what its binary says it is. */
function serverTarget(text: string): LintTarget {
  try {
    const spec = parseServerSpec(text);
    return spec.kind === 'default'
      ? lintTargetOf({ server: 'redis', version: '7', major: 7 })
      : lintTargetOf(resolveServer(spec).version);
  } catch (error) {
    if (error instanceof ClusterUsageError) throw new UsageError(`lint: ${error.message}`);
    throw error;
  }
}

function patternOf(name: string): AnyPattern {
  if (!isPatternName(name))
    throw new UsageError(`lint: --pattern must be ${knownPatternNames().join(', ')} or a pattern file, got '${name}'`);
  return patternNamed(name);
}

/** A directory that lacks a script the pattern calls: the implementation cannot run there. */
function missingScripts(pattern: AnyPattern, paths: readonly string[]): Finding[] {
  return paths
    .filter((dir) => statSync(dir).isDirectory())
    .flatMap((dir) =>
      pattern.scripts
        .filter((script) => !existsSync(path.join(dir, `${script}.lua`)))
        .map((script) => ({
          rule: 'missing-script',
          severity: 'error' as const,
          file: dir,
          line: 0,
          column: 0,
          message: `pattern ${pattern.name} calls ${script}.lua, which ${dir} does not hold`,
        })),
    );
}

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  try {
    const { values, positionals } = parse('lint', argv, FLAGS, true);
    if (values.help) {
      io.stdout.write(usage());
      return EXIT.ok;
    }
    const pattern = values.pattern === undefined ? undefined : patternOf(values.pattern);
    // The reference scripts' folder, as the lua-dir opener finds it (not imported: lint loads no Redis client).
    const paths =
      positionals.length === 0 && pattern
        ? [pattern.referenceDir ?? path.join(projectRoot, 'lua', pattern.name)]
        : positionals;
    if (paths.length === 0) throw new UsageError('lint: no path given (usage: chaoslua lint DIR|FILE... [--json])');
    const files = await collectFiles(paths);
    const linted = await lintFiles(files, values.server === undefined ? undefined : serverTarget(values.server)).catch(
      (error: unknown) => {
        throw error instanceof InputLimitError ? new UsageError(`lint: ${error.message}`) : error;
      },
    );
    const findings = [...(pattern ? missingScripts(pattern, paths) : []), ...linted];
    if (values.json) io.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
    else for (const finding of findings) io.stdout.write(`${formatFinding(finding)}\n`);
    const fileCount = `${files.length} file${files.length === 1 ? '' : 's'}`;
    const errors = findings.filter(isError).length;
    const advice = findings.length - errors;
    const split = advice === 0 ? '' : ` (${errors} error${errors === 1 ? '' : 's'}, ${advice} advice)`;
    io.stderr.write(
      findings.length === 0
        ? `chaoslua lint: ${fileCount}, no findings\n`
        : `chaoslua lint: ${findings.length} finding${findings.length === 1 ? '' : 's'}${split} in ${fileCount}\n`,
    );
    return errors === 0 ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`chaoslua ${printable(error.message)}\n`);
    return EXIT.usage;
  }
}
