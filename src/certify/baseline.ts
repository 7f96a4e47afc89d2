/**
 * `certify --baseline certificate.json`: gate on regressions, not on the absolute verdict, as CI does
 * for an implementation with known, accepted failures. A regression is an invariant that passed in
 * the baseline and fails now, a certified baseline that is not certified now, or a kind of finding
 * (hang, crash, probe...) the baseline did not have. Everything else that changed is said, not judged.
 */
import type { Certificate } from '../report/certificate.ts';
import { describeSettings } from '../plan/settings.ts';

export interface BaselineComparison {
  readonly regressions: readonly string[];
  /** Other differences worth a line: invariants fixed, findings gone, counts that moved. */
  readonly changes: readonly string[];
}

export class BaselineError extends Error {
  override readonly name = 'BaselineError';
}

/** The kind of a finding: its prefix before the first colon (`hang`, `evidence`, `probe`...). */
const findingKind = (finding: string) => finding.split(':', 1)[0];

/** Counts compared when both certificates have them: a number, or numbers by name (duplicate effects by operation). */
const COUNTS = ['replicationLosses', 'duplicateEffects'] as const;

export function compareWithBaseline(baseline: Certificate, current: Certificate): BaselineComparison {
  if (baseline.pattern !== current.pattern)
    throw new BaselineError(`the baseline certifies ${baseline.pattern}, this run ${current.pattern}`);
  const regressions: string[] = [];
  const changes: string[] = [];
  const before = new Map(baseline.invariants.map((s) => [s.invariant, s]));
  for (const now of current.invariants) {
    const then = before.get(now.invariant);
    if (!then) continue;
    // Not applicable is not a failure, and never a pass: an invariant the baseline proved and this
    // run cannot witness any more (fewer operations or coarser answers declared) is a regression.
    if (now.notApplicable !== undefined || then.notApplicable !== undefined) {
      if (now.notApplicable !== undefined && then.notApplicable === undefined && then.passed)
        regressions.push(`${now.invariant} passed in the baseline and is not applicable now (${now.notApplicable})`);
      else if (now.notApplicable === undefined && !now.passed)
        regressions.push(
          `${now.invariant} was not applicable in the baseline and fails now: ${now.violations[0]?.message.split('\n')[0] ?? 'violated'}`,
        );
      else if (now.notApplicable === undefined)
        changes.push(`${now.invariant} was not applicable in the baseline and passes now`);
      continue;
    }
    if (then.passed && !now.passed)
      regressions.push(
        `${now.invariant} passed in the baseline and fails now: ${now.violations[0]?.message.split('\n')[0] ?? 'violated'}`,
      );
    if (!then.passed && now.passed) changes.push(`${now.invariant} failed in the baseline and passes now`);
    if (!then.passed && !now.passed) changes.push(`${now.invariant} still fails, as in the baseline`);
  }
  const kindsBefore = new Set(baseline.findings.map(findingKind));
  const kindsNow = new Set(current.findings.map(findingKind));
  for (const f of current.findings) {
    if (!kindsBefore.has(findingKind(f))) regressions.push(`new finding: ${f}`);
  }
  for (const kind of kindsBefore)
    if (!kindsNow.has(kind)) changes.push(`finding gone: ${baseline.findings.find((f) => findingKind(f) === kind)}`);
  if (baseline.certified && !current.certified && regressions.length === 0)
    regressions.push('the baseline was certified and this run is not');
  if (!baseline.certified && current.certified) changes.push('certified now; the baseline was not');
  for (const name of COUNTS) {
    const a = (baseline as unknown as Record<string, unknown>)[name];
    const b = (current as unknown as Record<string, unknown>)[name];
    if (typeof a === 'number' && typeof b === 'number' && a !== b)
      changes.push(`${name}: ${a} in the baseline (${baseline.runs} runs), ${b} now (${current.runs} runs)`);
    if (isCounts(a) && isCounts(b)) {
      for (const part of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if ((a[part] ?? 0) !== (b[part] ?? 0))
          changes.push(
            `${name}.${part}: ${a[part] ?? 0} in the baseline (${baseline.runs} runs), ${b[part] ?? 0} now (${current.runs} runs)`,
          );
      }
    }
  }
  // Another window or limit draws other schedules: the comparison still stands, but says so.
  const settingsThen = describeSettings(baseline.settings ?? {});
  const settingsNow = describeSettings(current.settings ?? {});
  if (baseline.settings && current.settings && settingsThen !== settingsNow)
    changes.push(`settings: ${settingsThen} in the baseline, ${settingsNow} now`);
  if (baseline.implementation.sha256 !== current.implementation.sha256)
    changes.push(
      `implementation changed: sha256 ${baseline.implementation.sha256.slice(0, 12)} -> ${current.implementation.sha256.slice(0, 12)}`,
    );
  return { regressions, changes };
}

const isCounts = (x: unknown): x is Record<string, number> =>
  typeof x === 'object' && x !== null && Object.values(x).every((n) => typeof n === 'number');

/** The summary's lines about the baseline. */
export function baselineLines(file: string, c: BaselineComparison): string[] {
  const head = c.regressions.length ? `  baseline ${file}: REGRESSED` : `  baseline ${file}: no regression`;
  return [head, ...c.regressions.map((r) => `    REGRESSION ${r}`), ...c.changes.map((r) => `    changed: ${r}`)];
}
