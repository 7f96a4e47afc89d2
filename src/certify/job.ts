import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ExternalCluster } from '../cluster/external.ts';
import { describeViolation, LOST_ACKNOWLEDGED_WRITE } from '../checker/index.ts';
import { noscriptFinding } from '../checker/findings.ts';
import type { Cluster } from '../cluster/types.ts';
import { startCluster } from '../cluster/select.ts';
import { describeSchedule } from '../generator/index.ts';
import { applicability, capabilitiesJson, exactCapabilities, supportedOperations } from '../patterns/capabilities.ts';
import { PATTERNS, type AnyPattern } from '../patterns/index.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../report/counterexample.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { junitXml, type JunitCase } from '../report/junit.ts';
import { coverage, mergeCoverage, type CoverageTable } from '../report/coverage.ts';
import { writeCoverageFile, writeReportFiles } from '../report/html/index.ts';
import { writeMetricsFile } from '../report/metrics-file.ts';
import { chaos, type ChaosContext, type ChaosOutcome } from './chaos.ts';
import { corpusCases, exploreAfterCorpus, saveFailure } from '../corpus/job.ts';
import { writeFileSync } from 'node:fs';
import { jobChaosOptions, MAX_CLIENTS } from './chaos-options.ts';
import { evidenceFindings, judgeEvidence, tallyOperations, type OperationTally } from './evidence.ts';
import { answersText, barelyWitnessed } from './answers.ts';
import { duplicateFindings, tallyDuplicates, type DuplicateRun } from './duplicates.ts';
import { externalFaultsFor } from './external-faults.ts';
import { OpenFailure } from './open-failure.ts';
import { ScriptLoadError } from '../scripts/errors.ts';
import { progressReporter } from './progress.ts';
import { resultJson } from './summary.ts';
import { FINISHED_RUNS_FILE, FinishedRunsLog } from './finished-runs.ts';
import type { ImplOpener, InvariantStatus, Io, JobOptions, JobResult, OpenedImpl } from './types.ts';

/**
 * Run one chaos job. With `cluster` given (tests sharing one), it is used as is and left running;
 * otherwise the job starts the cluster `options.cluster` names and disposes it at the end.
 */
export async function runJob(options: JobOptions, open: ImplOpener, io: Io, cluster?: Cluster): Promise<JobResult> {
  const owned = cluster === undefined;
  const active =
    cluster ??
    (await startCluster(options.cluster, {
      local: { nodeTimeoutMs: options.nodeTimeoutMs, seed: options.seed % 2 ** 31 },
      external: { allowDestructive: options.allowDestructive ?? false },
    }));
  try {
    const clients = options.clients ?? MAX_CLIENTS;
    const opened = await open(active, clients).catch((error: unknown) => unopened(options, error));
    try {
      return await execute(options, active, opened, io);
    } finally {
      await opened.close();
    }
  } finally {
    if (owned) await active.dispose();
  }
}

async function execute(options: JobOptions, cluster: Cluster, opened: OpenedImpl, io: Io): Promise<JobResult> {
  const spec = PATTERNS[options.pattern] as AnyPattern;
  const model = spec.model;
  const progress = progressReporter(io, options.runs, options.json);
  const redisVersion = await cluster.redisVersion();
  const topology = String(await cluster.topology());
  const { faults, skipped: skippedFaults } = externalFaultsFor(cluster.kind === 'external', cluster.destructive, options.faults);
  if (skippedFaults.length && !options.json) {
    io.stderr.write(`chaoslua: on an external cluster these faults are not run: ${skippedFaults.join(', ')}${cluster.destructive ? '' : ' (--allow-destructive allows script-flush, busy-script and failovers)'}\n`);
  }
  const runId = randomBytes(4).toString('hex');
  if (cluster instanceof ExternalCluster) cluster.claimKeys(`*${runId}-*`);
  const coverageTables: CoverageTable[] = [];
  const historyFindings = new Set<string>();
  const probeNotes: string[] = [];
  // What the implementation declared decides what is drawn, judged and asked of the evidence.
  const capabilities = opened.capabilities ?? exactCapabilities(PATTERNS[options.pattern]);
  let operations: OperationTally[] = tallyOperations(options.pattern, [], capabilities);
  const duplicateRuns: DuplicateRun[] = [];
  const finishedRuns = new FinishedRunsLog();
  const onRun: ChaosContext['onRun'] = (t, last) => {
    progress.update(t);
    if (last.shrinking) return;
    finishedRuns.add({ run: t.runs, verdict: last.verdict, history: last.history });
    coverageTables.push(coverage(last.history, model));
    operations = addTallies(operations, tallyOperations(options.pattern, [last.history], capabilities));
    if (Object.keys(last.duplicateEffects).length) duplicateRuns.push({ run: t.runs, effects: last.duplicateEffects });
    const noscript = noscriptFinding(last.history);
    if (noscript && historyFindings.size === 0) historyFindings.add(noscript);
    for (const note of last.probeNotes) probeNotes.push(`run ${t.runs}: ${note}`);
    if (last.unreadProbes.length) historyFindings.add(`probe: the TTL of ${last.unreadProbes.length} key(s) could not be read after run ${t.runs} (${last.unreadProbes[0]}); counter-has-ttl could not judge them`);
  };
  // An implementation that could not be opened runs nothing: its finding is the verdict. Otherwise
  // the regression corpus (if any) is replayed first, then the job explores.
  const chaosOptions = jobChaosOptions({ ...options, faults, runId, ...(capabilities.declared ? { operations: supportedOperations(capabilities) } : {}) });
  const corpusCtx = { cluster, subjects: opened.subjects, spec, check: chaosOptions.check, nodeTimeoutMs: options.nodeTimeoutMs, opTimeoutMs: chaosOptions.opTimeoutMs, pattern: options.pattern, seed: options.seed };
  let explored: Awaited<ReturnType<typeof exploreAfterCorpus>>;
  try {
    explored =
      opened.subjects.length === 0
        ? { outcome: noRuns(options.seed), corpus: undefined }
        : await exploreAfterCorpus(options.corpus, corpusCtx, () => chaos({ cluster, subjects: opened.subjects, spec, onRun }, chaosOptions));
  } catch (error) {
    finishedRuns.discard();
    throw error;
  }
  const outcome = explored.outcome;
  progress.done(outcome.tally);

  const dir = createRunFolder(options.reportRoot, options.command, outcome.seed);
  opened.saveStderr?.(dir);
  const violations = outcome.failure?.result.violations ?? [];
  const mergedCoverage = mergeCoverage(coverageTables);
  const evidence = judgeEvidence({ pattern: options.pattern, faults, runs: outcome.tally.runs, operations, coverage: mergedCoverage, capabilities });
  // The environment ending a job is its first finding; a budget or evidence shortfall then follows
  // from it and is not the implementation's to answer for.
  const incomplete = outcome.environmentFailure ? environmentFinding(outcome, options.runs) : undefined;
  const duplicateEffects = tallyDuplicates(options.pattern, duplicateRuns);
  const duplicates = duplicateFindings(options.pattern, duplicateEffects);
  const findings = [
    ...(incomplete ? [incomplete] : []),
    ...opened.findings(),
    ...historyFindings,
    // Only a duplicate the pattern marks a violation withholds the certificate; the others are reported beside it.
    ...duplicates.filter((d) => d.violation).map((d) => d.text),
    ...(opened.subjects.length && !incomplete ? budgetFindings(options, outcome) : []),
  ];
  // Missing evidence matters only when nothing else failed: a violation or a finding already
  // explains the verdict, and a job cut short by its first failure never had its full budget. It
  // withholds a certificate; `run` (looking for violations in the reference) shows it, no more.
  // A shard judges a part of the budget: `merge` judges the evidence of all the shards together.
  if (options.command === 'certify' && !options.shard && !outcome.failure && findings.length === 0) findings.push(...evidenceFindings(evidence, options.runs));
  // The finished runs of a job the environment ended are its evidence: kept with their histories.
  if (incomplete) finishedRuns.saveTo(dir);
  finishedRuns.discard();
  const applicable = new Map(applicability(PATTERNS[options.pattern], capabilities).map((a) => [a.invariant, a.notApplicable]));
  // With --durability the job also certifies that no write WAIT acknowledged was lost (src/checker/lost-acknowledged.ts).
  const judged = [...PATTERNS[options.pattern].invariants, ...(options.durability || violations.some((v) => v.invariant === LOST_ACKNOWLEDGED_WRITE) ? [LOST_ACKNOWLEDGED_WRITE] : [])];
  const invariants: InvariantStatus[] = judged.map((invariant) => {
    const mine = violations.filter((v) => v.invariant === invariant).map((v) => ({ message: describeViolation(v), key: v.key }));
    const notApplicable = applicable.get(invariant);
    // Nothing the job saw could have shown it broken: reported as such, never as passed.
    if (notApplicable !== undefined && mine.length === 0) return { invariant, passed: false, notApplicable, violations: [] };
    const barely = barelyWitnessed(options.pattern, invariant, operations);
    return { invariant, passed: mine.length === 0, violations: mine, ...(barely ? { barelyWitnessed: barely } : {}) };
  });
  // A verdict the checker could not reach is never a pass.
  const unknown = outcome.failure?.result.verdict === 'unknown';
  let counterexampleFile: string | undefined;
  let corpus = explored.corpus;
  if (outcome.failure) {
    const describeInput = (i: unknown) => model.describeInput(i);
    const counterexample: Counterexample = {
      version: COUNTEREXAMPLE_VERSION,
      pattern: options.pattern,
      impl: opened.impl,
      implSpec: options.implSpec,
      seed: outcome.seed,
      path: outcome.path,
      options: { ...options, reportRoot: undefined },
      schedule: outcome.failure.schedule,
      scheduleText: describeSchedule(outcome.failure.schedule, describeInput),
      history: outcome.failure.history,
      result: outcome.failure.result,
    };
    counterexampleFile = writeJson(dir, 'counterexample.json', counterexample);
    // Only a violation is worth replaying forever; an undecided run names nothing.
    if (counterexample.result.verdict === 'illegal') corpus = saveFailure(options.corpus, corpus, counterexample, dir);
  }
  const passed = !outcome.failure && findings.length === 0;
  const cases: JunitCase[] = invariants.map((s) => ({
    name: s.invariant,
    passed: s.passed,
    ...(s.notApplicable ? { skipped: s.notApplicable } : {}),
    message: s.violations[0]?.message,
    detail: s.violations.map((v) => v.message).join('\n'),
  }));
  if (unknown) cases.push({ name: 'checker-verdict', passed: false, message: 'the checker could not decide within its budget (unknown)' });
  for (const f of findings) cases.push({ name: findingCaseName(f), passed: false, message: f });
  cases.push(...corpusCases(corpus));
  // Answer counts as suite properties: a dashboard shows how much of the verdict rests on acknowledged answers.
  const properties = Object.fromEntries([
    ...evidence.operations.map((o) => [`answers.${o.op}`, answersText(o)]),
    ...invariants.filter((s) => s.barelyWitnessed).map((s) => [`barely-witnessed.${s.invariant}`, s.barelyWitnessed!]),
    ...(capabilities.declared ? Object.entries(capabilitiesJson(capabilities)).map(([op, level]) => [`capabilities.${op}`, level]) : []),
    ...Object.entries(capabilities.variants ?? {}).map(([name, choice]) => [`variants.${name}`, choice]),
    ...Object.entries(duplicateEffects).map(([op, d]) => [`duplicate-effects.${op}`, String(d.count)]),
    ...duplicates.map((d) => [`duplicate-finding.${d.text.split(':', 1)[0]}`, d.text]),
  ]);
  writeFileSync(path.join(dir, 'junit.xml'), junitXml(`chaoslua ${options.command} ${options.pattern}`, cases, outcome.ms / 1000, properties));
  const result: JobResult = { passed, dir, outcome, invariants, findings, impl: opened.impl, redisVersion, topology, counterexampleFile, evidence, skippedFaults, corpus, incomplete: incomplete !== undefined, probeNotes, capabilities, ...(opened.keyMapping ? { keyMapping: opened.keyMapping } : {}), duplicateEffects, duplicateFindings: duplicates.map((d) => d.text) };
  writeJson(dir, 'result.json', resultJson(options, result));
  // The implementation's metrics are read from Redis: not once the environment has failed.
  await writeExtras(dir, incomplete ? { ...opened, metricsTexts: undefined } : opened, mergedCoverage, io);
  return result;
}

/**
 * The implementation could not be opened (Redis refused a script, createStore threw or hung): the
 * job goes on to its report with that finding and no runs. Anything else is not the job's to judge.
 */
function unopened(options: JobOptions, error: unknown): OpenedImpl {
  let finding: string;
  if (error instanceof OpenFailure) finding = `${error.finding}: ${error.message}`;
  else if (error instanceof ScriptLoadError) finding = `script-load: ${error.message.split('\n')[0]}`;
  else throw error;
  return { impl: options.implSpec ?? 'implementation', subjects: [], findings: () => [finding], close: async () => undefined };
}

function noRuns(seed: number): ChaosOutcome {
  const tally = { runs: 0, shrinks: 0, discarded: 0, discardCauses: [], ops: 0, faults: 0, failures: 0, replicationLosses: 0, faultCounts: {} };
  return { tally, seed, ms: 0, interrupted: false, shortOfRuns: false };
}

/** The finding of a job the environment ended: what failed, and how many runs had finished. */
function environmentFinding(outcome: ChaosOutcome, runsAsked: number): string {
  const t = outcome.tally;
  return `environment: ${outcome.environmentFailure}; the job stopped after ${t.runs} of ${runsAsked} runs finished (kept in ${FINISHED_RUNS_FILE})`;
}

/** JUnit test case of a finding: its kind, from the finding's own prefix. */
function findingCaseName(finding: string): string {
  if (finding.startsWith('environment:')) return 'environment';
  if (finding.startsWith('evidence:')) return 'evidence';
  if (finding.startsWith('budget:')) return 'judged-runs';
  return 'implementation-behaviour';
}

/**
 * A certificate speaks for the runs asked, judged: runs discarded (the cluster needed a second heal)
 * are replaced, and a job that still judged fewer, or hit its time limit first, says so and is not
 * certified.
 */
function budgetFindings(options: JobOptions, outcome: ChaosOutcome): string[] {
  const t = outcome.tally;
  // --path re-runs one shrunk schedule, whatever --runs says.
  if (outcome.failure || t.runs >= options.runs || options.path !== undefined) return [];
  const discarded = t.discarded ? `; ${t.discarded} discarded (${t.discardCauses[0]})` : '';
  if (outcome.interrupted) {
    // `run` is told how long to look; `certify` promises the runs it was asked for.
    if (options.command === 'run') return [];
    return [`budget: the time limit (${options.timeLimitMs / 1000} s) was reached after ${t.runs} of ${options.runs} runs judged${discarded}: raise --time-limit or lower --runs`];
  }
  return [`budget: only ${t.runs} of ${options.runs} runs were judged${discarded}`];
}

function addTallies(a: OperationTally[], b: OperationTally[]): OperationTally[] {
  return a.map((x, i) => ({ op: x.op, issued: x.issued + b[i].issued, ok: x.ok + b[i].ok, fail: x.fail + b[i].fail, info: x.info + b[i].info }));
}

/** Metrics, coverage and the HTML page: useful, never allowed to change the verdict. */
async function writeExtras(dir: string, opened: OpenedImpl, merged: CoverageTable | undefined, io: Io): Promise<void> {
  try {
    const texts = (await opened.metricsTexts?.()) ?? [];
    if (texts.length) writeMetricsFile(dir, texts);
    if (merged) writeCoverageFile(dir, merged);
    writeReportFiles(dir);
  } catch (error) {
    io.stderr.write(`chaoslua: warning: the report page could not be written: ${(error as Error).message.split('\n')[0]}\n`);
  }
}

