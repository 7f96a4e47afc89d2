/**
 * The run folder of `chaoslua check`: result.json, counterexample.json when the history was not
 * shown linearizable (so `replay --no-rerun`, `export` and `check` itself read it again), and
 * report.html through the same page as every other run.
 */
import type { CheckResult } from '../checker/types.ts';
import type { Schedule } from '../plan/schedule.ts';
import type { History } from '../history/types.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from './counterexample.ts';
import { createRunFolder, writeJson } from './folder.ts';
import { COUNTEREXAMPLE_FILE, RESULT_FILE, type RunSummary } from './html/data.ts';
import { writeReportFiles } from './html/write.ts';

export interface CheckedFile {
  readonly file: string;
  readonly format: string;
  readonly model: string;
  readonly history: History;
  readonly result: CheckResult;
  readonly passed: boolean;
}

/** Writes the folder under `root`; returns its path. */
export function writeCheckFolder(root: string, checked: CheckedFile): string {
  const dir = createRunFolder(root, 'check', checked.model);
  const { result } = checked;
  const invariants = [...new Set(result.violations.map((v) => v.invariant))].map((invariant) => ({
    invariant,
    passed: false,
    violations: result.violations
      .filter((v) => v.invariant === invariant)
      .map((v) => ({ message: v.message, key: v.key })),
  }));
  const summary: RunSummary & { verdict: string } = {
    command: 'check',
    passed: checked.passed,
    verdict: result.verdict,
    pattern: checked.model,
    impl: checked.file,
    operations: result.stats.ops,
    duplicateEffects: Object.fromEntries(
      Object.entries(result.duplicateEffects ?? {}).map(([op, ids]) => [
        op,
        { count: ids.length, ops: ids.map((id) => ({ id })) },
      ]),
    ),
    seconds: Math.round(result.stats.ms) / 1000,
    // Keys a moved server clock explains pass, keeping no counterexample: the page shows them by these notes.
    ...(result.clockLosses?.length
      ? {
          clockLosses: result.clockLosses.length,
          clockLossNotes: result.clockLosses.map((l) => `key ${l.key}: ${l.message}`),
        }
      : {}),
    invariants: invariants.length > 0 ? invariants : [{ invariant: 'linearizable', passed: checked.passed }],
    checked: { file: checked.file, format: checked.format },
  };
  writeJson(dir, RESULT_FILE, summary);
  if (!checked.passed) {
    // No schedule produced this history: an empty one keeps the file's shape for its readers.
    const schedule = {
      pattern: checked.model,
      keys: result.stats.keys,
      clients: [],
      faults: [],
    } as unknown as Schedule;
    const counterexample: Counterexample = {
      version: COUNTEREXAMPLE_VERSION,
      pattern: checked.model as Schedule['pattern'],
      impl: checked.file,
      seed: 0,
      options: { format: checked.format },
      schedule,
      scheduleText: '',
      history: checked.history,
      result,
    };
    writeJson(dir, COUNTEREXAMPLE_FILE, counterexample);
  }
  writeReportFiles(dir);
  return dir;
}
