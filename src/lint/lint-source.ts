import type { Node } from 'luaparse';
import { type Finding, type Severity, compareFindings } from './finding.ts';
import { parseLua } from './parse-lua.ts';
import { buildProgram } from './program.ts';
import { ALL_RULES } from './rules/all-rules.ts';
import { SERVER_RULE, type LintTarget } from './target.ts';

export const SYNTAX_RULE = {
  id: 'syntax',
  description: 'the file is not valid Lua 5.1 (Redis would refuse to load it)',
  severity: 'error',
} as const;

/** Every rule id with its one-line reason, `syntax` included. */
export const RULES: ReadonlyArray<{ id: string; description: string; severity: Severity }> = [
  SYNTAX_RULE,
  SERVER_RULE,
  ...ALL_RULES.map(({ id, description, severity }) => ({ id, description, severity })),
];

/**
 * Lints one Lua source; `fileName` only labels the findings. With a `target` server, what its loader
 * refuses is an error, and advice it could not follow (add '#!lua' where none compiles) is left out.
 */
export function lintSource(source: string, fileName: string, target?: LintTarget): Finding[] {
  const findings = lintForRedis7(source, fileName);
  if (!target || target.shebang) return findings;
  const kept = findings.filter((f) => f.rule !== 'eval-shebang');
  if (!source.startsWith('#!')) return kept;
  const why = `${target.server} compiles no '#!' first line (Redis 7.0 added them): "unexpected symbol near '#'"`;
  const message = target.runnerComments
    ? `${why}; chaoslua's runner sends it as a comment there, your own client must drop it`
    : `${why}, so the script fails to load; drop the line for this server`;
  const severity: Severity = target.runnerComments ? 'advice' : SERVER_RULE.severity;
  return [{ rule: SERVER_RULE.id, severity, file: fileName, line: 1, column: 1, message }, ...kept].sort(
    compareFindings,
  );
}

function lintForRedis7(source: string, fileName: string): Finding[] {
  const result = parseLua(source);
  if (!result.ok) {
    const { line, column, message } = result.error;
    return [{ rule: SYNTAX_RULE.id, severity: 'error', file: fileName, line, column, message }];
  }
  const program = buildProgram(result.parsed);
  const findings = new Map<string, Finding>();
  for (const rule of ALL_RULES) {
    rule.check(program, (node: Node, message: string) => {
      const line = node.loc?.start.line ?? 1;
      const column = (node.loc?.start.column ?? 0) + 1;
      // Helpers walked from several call sites would otherwise repeat the same finding.
      findings.set(`${rule.id}:${line}:${column}:${message}`, {
        rule: rule.id,
        severity: rule.severity,
        file: fileName,
        line,
        column,
        message,
      });
    });
  }
  const allowed = allowances(source);
  return [...findings.values()].filter((f) => !allowed.get(f.line)?.has(f.rule)).sort(compareFindings);
}

/** `-- chaoslua-lint: allow RULE (why)` on a line or the line above it. */
const ALLOW = /--\s*chaoslua-lint:\s*allow\s+([\w-]+)/;

/**
 * Lines on which a rule is waived by a comment saying so, on that line or the one above. A waiver
 * is for a script whose contract requires what a rule flags in general (leases whose deadlines
 * must be on the server's clock calls TIME, which Redis 7 replicates as effects); the comment is
 * where the reason is written down, next to the call it excuses.
 */
function allowances(source: string): Map<number, Set<string>> {
  const allowed = new Map<number, Set<string>>();
  source.split('\n').forEach((text, i) => {
    const rule = ALLOW.exec(text)?.[1];
    if (rule === undefined) return;
    for (const line of [i + 1, i + 2]) allowed.set(line, (allowed.get(line) ?? new Set()).add(rule));
  });
  return allowed;
}
