export { type Finding, type Severity, formatFinding, isError } from './finding.ts';
export { RULES, lintSource } from './lint-source.ts';
export { lintFiles, lintPath, luaFilesAt } from './lint-path.ts';
export { lintTargetOf, SERVER_RULE, type LintTarget } from './target.ts';
