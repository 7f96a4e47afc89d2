import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MUTANTS_ROOT, type Mutant } from './catalogue.ts';

/**
 * The evidence behind each mutant's expected names and pinned CI seed: scenarios/mutants/sweep.json,
 * written by the multi-seed sweep of `npm run test:full` (suites/certify/mutants.full.test.ts) with
 * CHAOSLUA_WRITE_EVIDENCE=1. A slip that can first show as a neighbouring invariant is a fact about
 * the mutant, observed here: a mutant's `orNamed` is exactly the names its jobs in the evidence
 * carried besides `expect`, and its `ciSeed` is a seed the evidence shows catching it.
 */
export const SWEEP_FILE = path.join(MUTANTS_ROOT, 'sweep.json');

/** The k-th seed of the sweep: the bench's spacing (bench/mutants.ts), so the figures line up. */
export const sweepSeed = (k: number) => 1_000 + 7_919 * k;

/**
 * Which of the sweep's seeds a sweep runs: `CHAOSLUA_SWEEP_SEEDS=N` the first N, `=A-B` the A-th to
 * the B-th (from 0, inclusive), so a long sweep can be run in parts and merged into one evidence
 * file; 6 by default.
 */
export function sweepSeeds(spec = process.env.CHAOSLUA_SWEEP_SEEDS ?? '6'): number[] {
  const range = /^(\d+)-(\d+)$/.exec(spec);
  const count = /^\d+$/.test(spec) ? Number(spec) : NaN;
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : [0, count - 1];
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to >= from)) {
    throw new Error(`CHAOSLUA_SWEEP_SEEDS: '${spec}' is neither a count (6) nor a range of seed indices (6-19)`);
  }
  return Array.from({ length: to - from + 1 }, (_, i) => sweepSeed(from + i));
}

export const SWEEP_SEEDS: readonly number[] = sweepSeeds();

/** The sweep runs the chaos job as the mutant suite does: every fault, no shrinking, first failure ends it. */
export const SWEEP_SHRINK_RUNS = 0;

export interface SweepJob {
  readonly seed: number;
  /** The run that first failed (or raised a finding); null when the mutant survived the cap. */
  readonly run: number | null;
  /** Runs the job was capped at. */
  readonly cap: number;
  /** Invariants and findings the failure named. */
  readonly named: readonly string[];
}

export interface SweepEvidence {
  readonly command: string;
  readonly mutants: Record<string, readonly SweepJob[]>;
}

export const mutantLabel = (m: Pick<Mutant, 'pattern' | 'name'>) => `${m.pattern}/${m.name}`;

export function readEvidence(file = SWEEP_FILE): SweepEvidence {
  return JSON.parse(readFileSync(file, 'utf8')) as SweepEvidence;
}

/** New jobs replace the evidence's jobs of the same mutant and seed; every other job is kept. */
export function mergeEvidence(
  old: SweepEvidence | undefined,
  fresh: Record<string, readonly SweepJob[]>,
  command: string,
): SweepEvidence {
  const mutants: Record<string, SweepJob[]> = {};
  for (const [label, jobs] of Object.entries(old?.mutants ?? {})) mutants[label] = [...jobs];
  for (const [label, jobs] of Object.entries(fresh)) {
    const seeds = new Set(jobs.map((j) => j.seed));
    mutants[label] = [...(mutants[label] ?? []).filter((j) => !seeds.has(j.seed)), ...jobs].sort(
      (a, b) => a.seed - b.seed,
    );
  }
  return { command, mutants: Object.fromEntries(Object.entries(mutants).sort(([a], [b]) => a.localeCompare(b))) };
}

export function writeEvidence(evidence: SweepEvidence, file = SWEEP_FILE): void {
  writeFileSync(file, `${JSON.stringify(evidence, null, 2)}\n`);
}

/** Names the evidence saw for a mutant, other than its expected one: what its `orNamed` must be. */
export function observedOtherNames(evidence: SweepEvidence, m: Mutant): string[] {
  const jobs = evidence.mutants[mutantLabel(m)] ?? [];
  return [...new Set(jobs.flatMap((j) => j.named))].filter((n) => n !== m.expect).sort();
}

/** The catching seed with the earliest catch (the lowest seed among equals): the pinned CI seed. */
export function bestSeed(evidence: SweepEvidence, m: Mutant): SweepJob | undefined {
  const caught = (evidence.mutants[mutantLabel(m)] ?? []).filter((j) => j.run !== null && j.named.includes(m.expect));
  return caught.sort((a, b) => a.run! - b.run! || a.seed - b.seed)[0];
}
