/**
 * A job's third step, write: the verdict and what the runs showed, as a run folder under the report
 * root: counterexample.json (replayable, and saved to the corpus when it names a violation),
 * junit.xml, result.json, the finished runs of a job the environment ended, and the extras (metrics,
 * coverage, report.html) that never change the verdict.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeSchedule } from '../plan/schedule.ts';
import { capabilitiesJson } from '../patterns/capabilities.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../report/counterexample.ts';
import type { CoverageTable } from '../report/coverage.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { writeCoverageFile, writeReportFiles } from '../report/html/index.ts';
import { junitXml, type JunitCase } from '../report/junit.ts';
import { writeMetricsFile } from '../report/metrics-file.ts';
import { answersText } from './answers.ts';
import { saveFailure } from './corpus.ts';
import { corpusCases } from './corpus-report.ts';
import type { Judgement } from './judge.ts';
import type { JobRun } from './run.ts';
import { resultJson } from './summary.ts';
import type { Io, JobOptions, JobResult, OpenedImpl } from './types.ts';

/** What the job ran on, as its record says. */
export interface JobContext {
  readonly redisVersion: string;
  readonly server: JobResult['server'];
  readonly image?: string;
  readonly topology: string;
  readonly skippedFaults: JobResult['skippedFaults'];
  readonly capabilities: JobResult['capabilities'];
  readonly lanes: JobResult['lanes'];
}

export async function writeJob(
  options: JobOptions,
  opened: OpenedImpl,
  context: JobContext,
  ran: JobRun,
  judged: Judgement,
  io: Io,
): Promise<JobResult> {
  const { outcome } = ran;
  const dir = createRunFolder(options.reportRoot, options.command, outcome.seed);
  const keptStderr = opened.saveStderr?.(dir);
  // The finished runs of a job the environment ended are its evidence: kept with their histories.
  if (judged.incomplete) ran.finishedRuns.saveTo(dir);
  ran.finishedRuns.discard();
  let counterexampleFile: string | undefined;
  let corpus = ran.corpus;
  if (outcome.failure) {
    const counterexample = counterexampleOf(options, opened.impl, outcome.seed, outcome.path, outcome.failure);
    counterexampleFile = writeJson(dir, 'counterexample.json', counterexample);
    // Only a violation is worth replaying forever; an undecided run names nothing.
    if (counterexample.result.verdict === 'illegal') corpus = saveFailure(options.corpus, corpus, counterexample, dir);
  }
  const { unknown, ...verdict } = judged;
  // A crash finding quotes the program's stderr by its temp file, removed at close: it names the kept copy.
  const findings =
    keptStderr && opened.stderrFile
      ? verdict.findings.map((f) => f.split(opened.stderrFile!).join(keptStderr))
      : verdict.findings;
  const result: JobResult = {
    ...verdict,
    findings,
    dir,
    outcome,
    impl: opened.impl,
    ...context,
    counterexampleFile,
    corpus,
    probeNotes: ran.observations.probeNotes,
    ...(opened.keyMapping ? { keyMapping: opened.keyMapping } : {}),
    ...(opened.clientClockReach ? { clientClockReach: opened.clientClockReach } : {}),
  };
  writeFileSync(
    path.join(dir, 'junit.xml'),
    junitXml(
      `chaoslua ${options.command} ${options.pattern.name}`,
      junitCases(result, unknown),
      outcome.ms / 1000,
      junitProperties(result),
    ),
  );
  writeJson(dir, 'result.json', resultJson(options, result));
  // The implementation's metrics are read from Redis: not once the environment has failed.
  await writeExtras(
    dir,
    judged.incomplete ? { ...opened, metricsTexts: undefined } : opened,
    ran.observations.coverage,
    io,
  );
  return result;
}

/** counterexample.json: the failing schedule with its history and verdict, and what replays it. */
function counterexampleOf(
  options: JobOptions,
  impl: string,
  seed: number,
  fcPath: string | undefined,
  failure: NonNullable<JobRun['outcome']['failure']>,
): Counterexample {
  const model = options.pattern.model;
  return {
    version: COUNTEREXAMPLE_VERSION,
    pattern: options.pattern.name,
    impl,
    implSpec: options.implSpec,
    ...(options.pattern.source ? { patternFile: options.pattern.source.file } : {}),
    seed,
    path: fcPath,
    options: jobRecord(options),
    schedule: failure.schedule,
    scheduleText: describeSchedule(failure.schedule, (i) => model.describeInput(i)),
    history: failure.history,
    result: failure.result,
  };
}

/** The job's options as its files record them: the pattern by name, no report root. */
export const jobRecord = (options: JobOptions) => ({
  ...options,
  pattern: options.pattern.name,
  reportRoot: undefined,
});

function junitCases(r: JobResult, unknown: boolean): JunitCase[] {
  const cases: JunitCase[] = r.invariants.map((s) => ({
    name: s.invariant,
    passed: s.passed,
    ...(s.notApplicable ? { skipped: s.notApplicable } : {}),
    message: s.violations[0]?.message,
    detail: s.violations.map((v) => v.message).join('\n'),
  }));
  if (unknown)
    cases.push({
      name: 'checker-verdict',
      passed: false,
      message: 'the checker could not decide within its budget (unknown)',
    });
  for (const f of r.findings) cases.push({ name: findingCaseName(f), passed: false, message: f });
  cases.push(...corpusCases(r.corpus));
  return cases;
}

/** JUnit test case of a finding: its kind, from the finding's own prefix. */
function findingCaseName(finding: string): string {
  if (finding.startsWith('environment:')) return 'environment';
  if (finding.startsWith('evidence:')) return 'evidence';
  if (finding.startsWith('budget:')) return 'judged-runs';
  return 'implementation-behaviour';
}

/** Answer counts as suite properties: a dashboard shows how much of the verdict rests on acknowledged answers. */
function junitProperties(r: JobResult): Record<string, string> {
  return Object.fromEntries([
    ...r.evidence.operations.map((o) => [`answers.${o.op}`, answersText(o)]),
    ...r.invariants
      .filter((s) => s.barelyWitnessed)
      .map((s) => [`barely-witnessed.${s.invariant}`, s.barelyWitnessed!]),
    ...(r.capabilities.declared
      ? Object.entries(capabilitiesJson(r.capabilities)).map(([op, level]) => [`capabilities.${op}`, level])
      : []),
    ...Object.entries(r.capabilities.variants ?? {}).map(([name, choice]) => [`variants.${name}`, choice]),
    ...Object.entries(r.duplicateEffects).map(([op, d]) => [`duplicate-effects.${op}`, String(d.count)]),
    ...r.duplicateFindings.map((d) => [`duplicate-finding.${d.split(':', 1)[0]}`, d]),
    ...(r.server
      ? [
          ['server', `${r.server.name} ${r.server.version}`],
          ['server.allocator', r.server.allocator],
          ...Object.entries(r.server.features).map(([f, has]) => [`server.${f}`, String(has)]),
        ]
      : []),
  ]);
}

/** Metrics, coverage and the HTML page: useful, never allowed to change the verdict. */
async function writeExtras(dir: string, opened: OpenedImpl, merged: CoverageTable | undefined, io: Io): Promise<void> {
  try {
    const texts = (await opened.metricsTexts?.()) ?? [];
    if (texts.length) writeMetricsFile(dir, texts);
    if (merged) writeCoverageFile(dir, merged);
    writeReportFiles(dir);
  } catch (error) {
    io.stderr.write(
      `chaoslua: warning: the report page could not be written: ${(error as Error).message.split('\n')[0]}\n`,
    );
  }
}
