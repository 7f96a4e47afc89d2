/**
 * How much a finding weighs. An `error` is what breaks on a cluster or can hang a node (a key routing
 * cannot see, a keyspace walk, an unbounded loop, a global Redis refuses, a file that does not compile):
 * it refuses a certificate before any run. `advice` is what is worth knowing but safe under Redis 7's
 * effects replication (TIME, random choices) or a heuristic the chaos run judges better (a write before
 * an owner check): shown on the certificate and the report, never a refusal.
 */
export type Severity = 'error' | 'advice';

/** One problem found in one Lua file; line and column are 1-based. */
export interface Finding {
  rule: string;
  severity: Severity;
  file: string;
  line: number;
  column: number;
  message: string;
}

/** `file:line:col rule message`, the shape editors and CI annotators recognise; advice says so after the rule. */
export function formatFinding(finding: Finding): string {
  const advice = finding.severity === 'advice' ? ' (advice)' : '';
  return `${finding.file}:${finding.line}:${finding.column} ${finding.rule}${advice} ${finding.message}`;
}

export const isError = (finding: Finding) => finding.severity === 'error';

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}
