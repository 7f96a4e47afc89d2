import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Finding, lintPath } from '../../../src/lint/index.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export function lintFixture(relative: string): Promise<Finding[]> {
  return lintPath(path.join(FIXTURES, relative));
}

/** `rule@line:col` for each finding: pins both what was found and where. */
export function located(findings: Finding[]): string[] {
  return findings.map((finding) => `${finding.rule}@${finding.line}:${finding.column}`);
}
