import type { CheckOptions } from '../checker/types.ts';
import { EnvironmentError } from '../cluster/errors.ts';
import type { LocalCluster } from '../cluster/local.ts';
import { FAULT_NAMES, type FaultName } from '../faults/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { ChaosContext, ChaosOutcome } from './chaos.ts';
import { chaosOnLanes } from './lanes.ts';
import { jobChaosOptions, MAX_CLIENTS } from './chaos-options.ts';
import { luaDirOpener, referenceScriptsDir } from './openers/lua-dir.ts';
import { openOnLanes } from './open-lanes.ts';

export interface ReferenceChaosRun {
  readonly pattern: AnyPattern;
  /** A scripts directory for the reference client; default the project's lua/<pattern>. */
  readonly scriptsDir?: string;
  readonly runs: number;
  readonly seed: number;
  /** Default: every fault. */
  readonly faults?: readonly FaultName[];
  /** The faults' settings (`--set clock-jump=1000`); default each one's default. */
  readonly faultSettings?: Readonly<Record<string, number>>;
  readonly shrinkRuns?: number;
  readonly timeLimitMs?: number;
  readonly check?: CheckOptions;
  /** Called after every run with its history (the soak re-checks it to count states per key). */
  readonly onRun?: ChaosContext['onRun'];
}

/**
 * certify's chaos job (same opener, same options) over the reference scripts on already started
 * local clusters, without the report: what the zero-false-alarms suite and the soak run. Several
 * clusters are lanes of one job (lanes.ts): the same draws as on one, dealt among them.
 */
export async function referenceChaos(
  clusters: LocalCluster | readonly LocalCluster[],
  run: ReferenceChaosRun,
): Promise<ChaosOutcome> {
  const all = Array.isArray(clusters) ? (clusters as readonly LocalCluster[]) : [clusters as LocalCluster];
  if (all.length === 0) throw new RangeError('referenceChaos: no cluster to run on');
  const dir = run.scriptsDir ?? referenceScriptsDir(run.pattern);
  const open = luaDirOpener(run.pattern, dir, `lua:${dir}`);
  const opened = await openOnLanes(open, all, MAX_CLIENTS);
  try {
    const outcome = await chaosOnLanes(
      all.map((cluster, j) => ({ cluster, subjects: opened[j].subjects })),
      run.pattern,
      jobChaosOptions({
        runs: run.runs,
        seed: run.seed,
        faults: run.faults ?? FAULT_NAMES,
        ...(run.faultSettings ? { faultSettings: run.faultSettings } : {}),
        timeLimitMs: run.timeLimitMs ?? 600_000,
        shrinkRuns: run.shrinkRuns ?? 0,
        check: run.check,
        nodeTimeoutMs: all[0].options.nodeTimeoutMs,
      }),
      run.onRun,
    );
    // No report to keep the finished runs in: the suites and the soak need the environment error.
    if (outcome.environmentFailure) throw new EnvironmentError(outcome.environmentFailure);
    return outcome;
  } finally {
    await Promise.all(opened.map((o) => o.close()));
  }
}

/** What a failing outcome says, one violation or note per line. */
export function describeFailure(outcome: ChaosOutcome): string {
  const f = outcome.failure;
  if (!f) return 'no failure';
  return [
    `verdict ${f.result.verdict}`,
    ...f.result.violations.map((v) => `${v.invariant}: ${v.message}`),
    ...f.result.keys.filter((k) => k.note).map((k) => k.note!),
  ].join('\n');
}
