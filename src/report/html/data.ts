/**
 * What the report page is made from: the files of one run folder. result.json is written by
 * src/certify/summary.ts (`resultJson`); every field is read as optional so a folder from an older or
 * partial run still renders.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CoverageTable } from '../coverage.ts';
import { readCounterexample, type Counterexample } from '../counterexample.ts';
import { readMetricsFile, type Metrics } from '../metrics-file.ts';

export const RESULT_FILE = 'result.json';
export const COUNTEREXAMPLE_FILE = 'counterexample.json';
export const REPORT_FILE = 'report.html';
export const CERTIFICATE_FILE = 'certificate.json';
/** Optional: the coverage table of every run of the job (the page otherwise uses the counterexample's history). */
export const COVERAGE_FILE = 'coverage.json';

export interface InvariantSummary {
  readonly invariant: string;
  readonly passed: boolean;
  readonly violations?: readonly { readonly message: string; readonly key: string }[];
  /** Why it was barely witnessed: its operations answered mostly indeterminate. */
  readonly barelyWitnessed?: string;
}

/** One operation's answers as result.json's `evidence.operations` holds them (`info`: indeterminate). */
export interface OperationAnswers {
  readonly issued: number;
  readonly ok: number;
  readonly fail: number;
  readonly info: number;
}

/** result.json as the page reads it. */
export interface RunSummary {
  readonly command?: string;
  readonly passed?: boolean;
  readonly pattern?: string;
  readonly impl?: string;
  readonly seed?: number;
  /** The pattern's settings the sessions drew with (`--set`), when it has any. */
  readonly settings?: Readonly<Record<string, number>>;
  readonly runs?: number;
  readonly operations?: number;
  readonly faults?: Readonly<Record<string, number>>;
  readonly replicationLosses?: number;
  /** Runs a moved server clock explained (clock faults), and each one's "run N, key K: ..." note. */
  readonly clockLosses?: number;
  readonly clockLossNotes?: readonly string[];
  /** The clock assumption the verdict holds under: one line per clock fault in the set, or that every clock was true. */
  readonly clocks?: readonly string[];
  /** With client-clock in the fault set: the clients' clock offsets drawn and how far they reached the implementation, in one line. */
  readonly clientClocks?: string;
  /** Operations only a second execution explains, per operation (`run` absent for `chaoslua check`). */
  readonly duplicateEffects?: Readonly<
    Record<string, { readonly count: number; readonly ops: readonly { readonly run?: number; readonly id: number }[] }>
  >;
  /** Findings the pattern declares for them: reported beside the verdict. */
  readonly duplicateFindings?: readonly string[];
  readonly seconds?: number;
  readonly interrupted?: boolean;
  /** The environment ended the job: `runs` finished before it did (certify/run jobs). */
  readonly incomplete?: boolean;
  readonly invariants?: readonly InvariantSummary[];
  readonly findings?: readonly string[];
  /** certify and run jobs: answers per operation, shown beside the verdict. */
  readonly evidence?: { readonly operations?: Readonly<Record<string, OperationAnswers>> };
  readonly redisVersion?: string;
  /** The server the runs ran on, as the probes read it (certify and run jobs since --server). */
  readonly server?: {
    readonly name: string;
    readonly version: string;
    readonly allocator: string;
    readonly features: Readonly<Record<string, boolean>>;
  };
  readonly topology?: string;
  /** `chaoslua check`: the file judged and its format, so the page can name the command that re-checks it. */
  readonly checked?: { readonly file: string; readonly format: string };
}

export interface ReportData {
  /** The run folder as the reader types it (relative to the working directory when inside it). */
  readonly dir: string;
  readonly result: RunSummary;
  readonly counterexample?: Counterexample;
  readonly metrics?: Metrics;
  /** Coverage of all runs when the job recorded it; otherwise the page computes it from the counterexample. */
  readonly coverage?: CoverageTable;
}

export function readResult(dir: string): RunSummary | undefined {
  const file = path.join(dir, RESULT_FILE);
  if (!fs.existsSync(file)) return undefined;
  const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (parsed === null || typeof parsed !== 'object') throw new Error(`${file}: not a result object`);
  return parsed as RunSummary;
}

/** Reads a run folder; throws when it holds neither result.json nor counterexample.json. */
export function readReportData(dir: string): ReportData {
  const result = readResult(dir);
  const ceFile = path.join(dir, COUNTEREXAMPLE_FILE);
  const counterexample = fs.existsSync(ceFile) ? readCounterexample(ceFile) : undefined;
  if (!result && !counterexample)
    throw new Error(`${dir}: no ${RESULT_FILE} or ${COUNTEREXAMPLE_FILE} (not a chaoslua run folder)`);
  const covFile = path.join(dir, COVERAGE_FILE);
  const coverage = fs.existsSync(covFile) ? (JSON.parse(fs.readFileSync(covFile, 'utf8')) as CoverageTable) : undefined;
  const summary = result ?? fromCounterexample(counterexample as Counterexample);
  return {
    dir: displayPath(dir),
    result: summary.clientClocks === undefined ? { ...summary, ...clientClocksOf(dir) } : summary,
    counterexample,
    metrics: readMetricsFile(dir),
    coverage,
  };
}

/** certificate.json's client clock line, when the folder has one that states it (certify writes it after the page, so a page written again shows it). */
function clientClocksOf(dir: string): { clientClocks?: string } {
  const file = path.join(dir, CERTIFICATE_FILE);
  if (!fs.existsSync(file)) return {};
  try {
    const line = (JSON.parse(fs.readFileSync(file, 'utf8')) as { clientClocks?: unknown } | null)?.clientClocks;
    return typeof line === 'string' ? { clientClocks: line } : {};
  } catch {
    // The page shows what the run folder holds; a certificate it cannot read only loses this line.
    return {};
  }
}

/** A folder with only a counterexample (copied out of CI, say) still gets a header. */
function fromCounterexample(c: Counterexample): RunSummary {
  return { passed: false, pattern: c.pattern, impl: c.impl, seed: c.seed, operations: c.history.ops.length };
}

export function writeCoverageFile(dir: string, table: CoverageTable): string {
  const file = path.join(dir, COVERAGE_FILE);
  fs.writeFileSync(file, JSON.stringify(table, null, 2) + '\n');
  return file;
}

export function displayPath(dir: string): string {
  const rel = path.relative(process.cwd(), path.resolve(dir));
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(dir) : rel;
}
