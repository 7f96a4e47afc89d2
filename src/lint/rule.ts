import type { Node } from 'luaparse';
import type { LuaProgram } from './program.ts';

export type ReportFinding = (node: Node, message: string) => void;

/** One static check: an id for findings, a one-line reason, and the check itself. */
export interface Rule {
  id: string;
  description: string;
  check(program: LuaProgram, report: ReportFinding): void;
}
