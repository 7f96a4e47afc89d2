import type { Rule } from '../rule.ts';

/** Redis refuses scripts that create or replace globals; every name must be declared local. */
export const globalAssignment: Rule = {
  id: 'global-assignment',
  description: 'assignment to an undeclared name or a global function definition (Redis refuses globals)',
  severity: 'error',
  check(program, report) {
    for (const write of program.scopes.globalWrites) {
      const name = write.node.name;
      report(
        write.node,
        write.kind === 'function'
          ? `global function '${name}'; declare it 'local function ${name}'`
          : `assignment to global '${name}'; declare it with 'local'`,
      );
    }
  },
};
