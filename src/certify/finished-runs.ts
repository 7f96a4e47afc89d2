import fs from 'node:fs';
import path from 'node:path';
import type { History } from '../history/types.ts';
import { reapedDir } from '../cluster/reaper.ts';

/** Where a job the environment ended keeps its finished runs: one JSON object a line. */
export const FINISHED_RUNS_FILE = 'finished-runs.jsonl';

/** A judged run of a job, as kept in FINISHED_RUNS_FILE. */
export interface FinishedRun {
  readonly run: number;
  readonly verdict: string;
  readonly history: History;
}

/**
 * Every judged run's history, appended to a temp file as the run finishes rather than held in
 * memory (a long `run` job judges thousands). Moved into the report folder only when the environment
 * ended the job, since those runs are then its evidence; removed otherwise, and by the reaper
 * however the harness ends (SIGTERM or Ctrl-C mid-job left it behind).
 */
export class FinishedRunsLog {
  private readonly reaped = reapedDir('chaoslua-runs');
  private readonly file = path.join(this.reaped.dir, FINISHED_RUNS_FILE);

  add(run: FinishedRun): void {
    fs.appendFileSync(this.file, JSON.stringify(run) + '\n');
  }

  /** Copy the log into `reportDir` (empty when no run finished); returns its path. */
  saveTo(reportDir: string): string {
    const target = path.join(reportDir, FINISHED_RUNS_FILE);
    if (fs.existsSync(this.file)) fs.copyFileSync(this.file, target);
    else fs.writeFileSync(target, '');
    return target;
  }

  discard(): void {
    this.reaped.destroy();
  }
}
