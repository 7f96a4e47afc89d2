import type { Node } from 'luaparse';
import { type Finding, compareFindings } from './finding.ts';
import { parseLua } from './parse-lua.ts';
import { buildProgram } from './program.ts';
import { ALL_RULES } from './rules/all-rules.ts';

export const SYNTAX_RULE = { id: 'syntax', description: 'the file is not valid Lua 5.1 (Redis would refuse to load it)' } as const;

/** Every rule id with its one-line reason, `syntax` included. */
export const RULES: ReadonlyArray<{ id: string; description: string }> = [
  SYNTAX_RULE,
  ...ALL_RULES.map(({ id, description }) => ({ id, description })),
];

/** Lints one Lua source; `fileName` only labels the findings. */
export function lintSource(source: string, fileName: string): Finding[] {
  const result = parseLua(source);
  if (!result.ok) {
    const { line, column, message } = result.error;
    return [{ rule: SYNTAX_RULE.id, file: fileName, line, column, message }];
  }
  const program = buildProgram(result.parsed);
  const findings = new Map<string, Finding>();
  for (const rule of ALL_RULES) {
    rule.check(program, (node: Node, message: string) => {
      const line = node.loc?.start.line ?? 1;
      const column = (node.loc?.start.column ?? 0) + 1;
      // Helpers walked from several call sites would otherwise repeat the same finding.
      findings.set(`${rule.id}:${line}:${column}:${message}`, { rule: rule.id, file: fileName, line, column, message });
    });
  }
  return [...findings.values()].sort(compareFindings);
}
