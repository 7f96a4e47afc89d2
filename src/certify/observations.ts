/**
 * What a job keeps of each fresh run besides its verdict, as the run finishes: its transition
 * coverage, the answers per operation, the operations only a second execution explains, the
 * defects that are not wrong answers (NOSCRIPT twice in a row, probes that could not be read), and
 * the histories themselves (a temp file, kept only when the environment ends the job). Shrinking
 * runs are left out: they re-run a failure, they are not the job's evidence.
 */
import type { DuplicateEffects } from '../checker/types.ts';
import { noscriptFinding } from '../checker/findings.ts';
import type { History } from '../history/types.ts';
import type { Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { coverage, mergeCoverage, type CoverageTable } from '../report/coverage.ts';
import type { ChaosContext } from './chaos.ts';
import type { DuplicateRun } from './duplicates.ts';
import { tallyOperations, type OperationTally } from './evidence.ts';
import { FinishedRunsLog } from './finished-runs.ts';

/** What the job's runs showed, for the judge. */
export interface Observations {
  /** The transitions × faults table of every judged run, merged. */
  readonly coverage: CoverageTable | undefined;
  /** Answers per supported operation, over the judged runs. */
  readonly operations: readonly OperationTally[];
  readonly duplicateRuns: readonly DuplicateRun[];
  /** Findings read off the histories (the first NOSCRIPT defect, probes left unread). */
  readonly historyFindings: readonly string[];
  /** Post-run probes read under another name than the key handed over, or skipped, with why. */
  readonly probeNotes: readonly string[];
}

type RunReport = Parameters<NonNullable<ChaosContext['onRun']>>[1];

export class RunObserver {
  private readonly tables: CoverageTable[] = [];
  private operations: OperationTally[];
  private readonly duplicateRuns: DuplicateRun[] = [];
  private readonly historyFindings = new Set<string>();
  private readonly probeNotes: string[] = [];
  /** Every judged run's history, for a job the environment ends. */
  readonly finishedRuns = new FinishedRunsLog();

  constructor(
    private readonly pattern: AnyPattern,
    private readonly capabilities: Capabilities,
  ) {
    this.operations = tallyOperations(pattern, [], capabilities);
  }

  /** The run numbered `run` (fresh runs only; shrinking runs are ignored). */
  observe(run: number, last: RunReport): void {
    if (last.shrinking) return;
    this.finishedRuns.add({ run, verdict: last.verdict, history: last.history });
    this.tables.push(coverage(last.history, this.pattern.model, this.pattern.transitions));
    this.operations = addTallies(this.operations, tallyOperations(this.pattern, [last.history], this.capabilities));
    if (Object.keys(last.duplicateEffects).length)
      this.duplicateRuns.push({ run, effects: last.duplicateEffects as DuplicateEffects });
    const noscript = noscriptFinding(last.history as History);
    if (noscript && this.historyFindings.size === 0) this.historyFindings.add(noscript);
    for (const note of last.probeNotes) this.probeNotes.push(`run ${run}: ${note}`);
    if (last.unreadProbes.length) {
      this.historyFindings.add(
        `probe: the TTL of ${last.unreadProbes.length} key(s) could not be read after run ${run} (${last.unreadProbes[0]}); counter-has-ttl could not judge them`,
      );
    }
  }

  observations(): Observations {
    return {
      coverage: mergeCoverage(this.tables, this.pattern.transitions),
      operations: this.operations,
      duplicateRuns: this.duplicateRuns,
      historyFindings: [...this.historyFindings],
      probeNotes: this.probeNotes,
    };
  }
}

function addTallies(a: OperationTally[], b: OperationTally[]): OperationTally[] {
  return a.map((x, i) => ({
    op: x.op,
    issued: x.issued + b[i].issued,
    ok: x.ok + b[i].ok,
    fail: x.fail + b[i].fail,
    info: x.info + b[i].info,
  }));
}
