import type { Node } from 'luaparse';
import type { Severity } from './finding.ts';
import type { LuaProgram } from './program.ts';

export type ReportFinding = (node: Node, message: string) => void;

/** One static check: an id for findings, a one-line reason, how much its findings weigh, and the check itself. */
export interface Rule {
  id: string;
  description: string;
  severity: Severity;
  check(program: LuaProgram, report: ReportFinding): void;
}
