import { noscriptFinding } from '../../../src/checker/findings.ts';
import type { ImplOpener } from '../../../src/cli/job.ts';
import { moduleOpener } from '../../../src/cli/module-impl.ts';
import { luaDirOpener } from '../../../src/cli/reference-impl.ts';
import type { Cluster } from '../../../src/cluster/types.ts';
import { countOps, FAULT_NAMES, type PatternName } from '../../../src/generator/index.ts';
import { models } from '../../../src/model/index.ts';
import { chaos, type ChaosContext, type Failure } from '../../../src/runner/chaos.ts';
import type { Subject } from '../../../src/subject/types.ts';

/** How `certify` opens an implementation (lint is not part of it). */
export function openerFor(pattern: PatternName, kind: 'lua' | 'module', impl: string): ImplOpener {
  return kind === 'lua' ? luaDirOpener(pattern, impl, `lua:${impl}`) : moduleOpener(pattern, impl);
}

/** The name of a finding string ("name: message"). */
const findingName = (finding: string) => finding.split(':', 1)[0];

export interface JobLimits {
  readonly seed: number;
  /** Most schedules before the implementation counts as surviving. */
  readonly runs: number;
  /** Stop starting schedules after this long. */
  readonly timeLimitMs: number;
  /** Re-runs spent shrinking the first failure. */
  readonly shrinkRuns: number;
}

export interface JobVerdict {
  readonly rejected: boolean;
  /** Invariants the (shrunk) failure names, then findings by name; empty when nothing was found. */
  readonly named: readonly string[];
  readonly verdict: string;
  /** Runs and seconds until the first failing run (or the run that raised the first finding). */
  readonly firstFailure?: { readonly run: number; readonly seconds: number };
  /** Operations in the shrunk failing schedule. */
  readonly shrunkOps?: number;
  readonly runs: number;
  readonly seconds: number;
  readonly findings: readonly string[];
  readonly messages: readonly string[];
  /** The shrunk failing run (schedule, history, verdict), for a closer look. */
  readonly failure?: Failure;
}

/**
 * The chaos job of `runJob` (same schedule options: every fault, 2-8 clients, 1-4 keys, 10 s per
 * operation) on a cluster the caller owns, with two things runJob cannot do yet: stop at the first
 * finding (a mutant suite wants the catch, not the remaining runs) and keep shrink runs on fresh
 * keys (isolateRuns). mutants.test.ts also runs runJob itself on a mutant.
 */
export async function chaosJob(cluster: Cluster, pattern: PatternName, open: ImplOpener, limits: JobLimits): Promise<JobVerdict> {
  const clients = 8;
  const opened = await open(cluster, clients);
  const isolated = isolateRuns(opened.subjects);
  const started = performance.now();
  let findingAt: { run: number; seconds: number } | undefined;
  const historyFindings: string[] = [];
  try {
    const ctx: ChaosContext = {
      cluster,
      subjects: isolated.subjects,
      model: models[pattern] as ChaosContext['model'],
      onRun: (tally, last) => {
        isolated.nextRun();
        // As runJob does: findings from fresh runs' histories, plus what the opener reports.
        const noscript = last.shrinking ? undefined : noscriptFinding(last.history);
        if (noscript && historyFindings.length === 0) historyFindings.push(noscript);
        if (!findingAt && opened.findings().length + historyFindings.length > 0) findingAt = { run: tally.runs, seconds: (performance.now() - started) / 1000 };
      },
    };
    const outcome = await chaos(ctx, {
      runs: limits.runs,
      seed: limits.seed,
      shrinkRuns: limits.shrinkRuns,
      opTimeoutMs: 10_000,
      nodeTimeoutMs: 1_000,
      schedule: { pattern, faults: FAULT_NAMES, clients: [2, clients], keys: [1, 4], nodeTimeoutMs: 1_000 },
      // chaos reads the limit before every run: once a finding is in, no later run changes the verdict.
      get timeLimitMs() {
        return findingAt ? 0 : limits.timeLimitMs;
      },
    });
    const failure = outcome.failure;
    const findings = [...opened.findings(), ...historyFindings];
    const violations = failure?.result.violations ?? [];
    return {
      rejected: failure !== undefined || findings.length > 0,
      named: [...new Set([...violations.map((v) => v.invariant), ...findings.map(findingName)])],
      verdict: failure?.result.verdict ?? (findings.length ? 'finding' : 'ok'),
      firstFailure: failure?.firstFailure ?? findingAt,
      shrunkOps: failure ? countOps(failure.schedule) : undefined,
      runs: outcome.tally.runs + outcome.tally.discarded,
      seconds: outcome.ms / 1000,
      findings,
      messages: [...violations.map((v) => `${v.invariant}: ${v.message}`), ...findings],
      failure,
    };
  } finally {
    await opened.close();
  }
}

/**
 * chaos names a run's keys after its count of fresh runs, which shrinking re-runs do not advance
 * (src/runner/chaos.ts), so consecutive shrink runs share keys and one can fail on the previous
 * one's leftovers (a counter without TTL, a 3 s completed record): a shrunk counterexample that
 * does not replay. A suffix per run keeps every run on keys nobody touched; harmless once fixed.
 */
function isolateRuns(subjects: readonly Subject[]): { subjects: Subject[]; nextRun(): void } {
  let run = 0;
  const own = (key: string) => `${key}.r${run}`;
  return {
    nextRun: () => void run++,
    subjects: subjects.map((subject) => ({
      name: subject.name,
      invoke: (key, input) => subject.invoke(own(key), input),
      redisKey: subject.redisKey && ((key) => subject.redisKey!(own(key))),
      close: () => subject.close(),
    })),
  };
}
