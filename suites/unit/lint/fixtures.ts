import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Finding, lintPath } from '../../../src/lint/index.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/**
 * Each fixture is about the rule its folder names. A fixture that writes and has no `#!lua` first
 * line would also carry eval-shebang's advice; that rule is held by its own file (eval-shebang.test.ts),
 * so it is left out here.
 */
export async function lintFixture(relative: string): Promise<Finding[]> {
  return withoutShebangAdvice(await lintPath(path.join(FIXTURES, relative)));
}

export const withoutShebangAdvice = (findings: Finding[]): Finding[] =>
  findings.filter((f) => f.rule !== 'eval-shebang');

/** `rule@line:col` for each finding: pins both what was found and where. */
export function located(findings: Finding[]): string[] {
  return findings.map((finding) => `${finding.rule}@${finding.line}:${finding.column}`);
}
