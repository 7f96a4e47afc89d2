import { noscriptFinding } from '../../../src/checker/findings.ts';
import { jobChaosOptions, MAX_CLIENTS } from '../../../src/certify/chaos-options.ts';
import { moduleOpener } from '../../../src/certify/openers/module.ts';
import { luaDirOpener } from '../../../src/certify/openers/lua-dir.ts';
import type { ImplOpener } from '../../../src/certify/types.ts';
import { openOnLanes } from '../../../src/certify/open-lanes.ts';
import type { LocalCluster } from '../../../src/cluster/local.ts';
import { countOps, FAULT_NAMES, type FaultName } from '../../../src/generator/index.ts';
import type { PatternName } from '../../../src/patterns/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import type { ChaosContext, Failure } from '../../../src/certify/chaos.ts';
import { chaosOnLanes } from '../../../src/certify/lanes.ts';
import { EnvironmentError } from '../../../src/cluster/errors.ts';

/** How `certify` opens an implementation (lint is not part of it). */
export function openerFor(pattern: PatternName, kind: 'lua' | 'module', impl: string): ImplOpener {
  return kind === 'lua' ? luaDirOpener(PATTERNS[pattern], impl, `lua:${impl}`) : moduleOpener(PATTERNS[pattern], impl);
}

/** The name of a finding string ("name: message"). */
const findingName = (finding: string) => finding.split(':', 1)[0];

export interface JobLimits {
  readonly seed: number;
  /** Most schedules before the implementation counts as surviving: the only cap (no wall-time cap, so a
   *  loaded machine runs as many schedules as an idle one). */
  readonly runs: number;
  /** Re-runs spent shrinking the first failure. */
  readonly shrinkRuns: number;
  /** Stop shrinking after this long, ms (certify's --shrink-time); absent: no limit. */
  readonly shrinkTimeMs?: number;
  /** The faults drawn; absent: every fault of all (FAULT_NAMES), as certify's default. */
  readonly faults?: readonly FaultName[];
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
  /** Seconds spent shrinking it, on how many clusters at once. */
  readonly shrinking?: { readonly seconds: number; readonly clusters: number; readonly stopped: string };
}

/**
 * The chaos job of `runJob` (the same jobChaosOptions, every fault) on a cluster the caller owns,
 * with what runJob does not do: stop at the first finding (a mutant suite wants the catch, not the
 * remaining runs) and skip the report. mutants.test.ts also runs runJob itself on a mutant.
 */
export async function chaosJob(
  clusters: LocalCluster | readonly LocalCluster[],
  pattern: PatternName,
  open: ImplOpener,
  limits: JobLimits,
): Promise<JobVerdict> {
  // Several clusters are one job's lanes (--clusters): the same draws, dealt to them; shrinking on all.
  const lanes = Array.isArray(clusters) ? clusters : [clusters as LocalCluster];
  const openedAll = await openOnLanes(open, lanes, MAX_CLIENTS);
  const opened = {
    findings: () => openedAll.flatMap((o) => o.findings()),
    close: async () => void (await Promise.allSettled(openedAll.map((o) => o.close()))),
  };
  const started = performance.now();
  let findingAt: { run: number; seconds: number } | undefined;
  const historyFindings: string[] = [];
  try {
    const onRun: ChaosContext['onRun'] = (tally, last) => {
      // As runJob does: findings from fresh runs' histories, plus what the opener reports.
      const noscript = last.shrinking ? undefined : noscriptFinding(last.history);
      if (noscript && historyFindings.length === 0) historyFindings.push(noscript);
      if (!findingAt && opened.findings().length + historyFindings.length > 0)
        findingAt = { run: tally.runs, seconds: (performance.now() - started) / 1000 };
    };
    const outcome = await chaosOnLanes(
      lanes.map((c, i) => ({ cluster: c, subjects: openedAll[i].subjects })),
      PATTERNS[pattern],
      jobChaosOptions({
        runs: limits.runs,
        seed: limits.seed,
        faults: limits.faults ?? FAULT_NAMES,
        timeLimitMs: Number.POSITIVE_INFINITY,
        shrinkRuns: limits.shrinkRuns,
        shrinkTimeMs: limits.shrinkTimeMs,
        nodeTimeoutMs: lanes[0].options.nodeTimeoutMs,
        // Once a finding is in, no later run changes the verdict.
        stopEarly: () => findingAt !== undefined,
      }),
      onRun,
    );
    // A job that judged fewer runs than asked gives no verdict on the mutant. With no time limit, a
    // job without a finding ends early only when the environment failed or too many runs were
    // discarded: both now throw, saying which. (CI once reported a mutant that "survived 25 runs"
    // of its 100; what ended that job was not recorded.)
    if (outcome.environmentFailure)
      throw new EnvironmentError(`${outcome.environmentFailure} (after ${outcome.tally.runs} judged runs)`);
    if (outcome.shortOfRuns) {
      const causes = [...new Set(outcome.tally.discardCauses)].join('; ');
      throw new EnvironmentError(
        `${outcome.tally.runs} of ${limits.runs} runs judged: ${outcome.tally.discarded} discarded (${causes})`,
      );
    }
    const failure = outcome.failure;
    const findings = [...opened.findings(), ...historyFindings];
    const violations = failure?.result.violations ?? [];
    return {
      rejected: failure !== undefined || findings.length > 0,
      named: [...new Set([...violations.map((v) => v.invariant), ...findings.map(findingName)])],
      verdict: failure?.result.verdict ?? (findings.length ? 'finding' : 'ok'),
      firstFailure: failure?.firstFailure ?? findingAt,
      shrunkOps: failure ? countOps(failure.schedule) : undefined,
      runs: outcome.tally.runs, // judged: discarded runs are replaced, never counted
      seconds: outcome.ms / 1000,
      findings,
      messages: [...violations.map((v) => `${v.invariant}: ${v.message}`), ...findings],
      failure,
      shrinking: outcome.shrinking && {
        seconds: outcome.shrinking.ms / 1000,
        clusters: outcome.shrinking.clusters,
        stopped: outcome.shrinking.stopped,
      },
    };
  } finally {
    await opened.close();
  }
}
