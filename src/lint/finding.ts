/** One problem found in one Lua file; line and column are 1-based. */
export interface Finding {
  rule: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

/** `file:line:col rule message`, the shape editors and CI annotators recognise. */
export function formatFinding(finding: Finding): string {
  return `${finding.file}:${finding.line}:${finding.column} ${finding.rule} ${finding.message}`;
}

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}
