import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ExternalCluster } from '../cluster/external.ts';
import { describeViolation } from '../checker/index.ts';
import { noscriptFinding } from '../checker/findings.ts';
import type { Cluster } from '../cluster/types.ts';
import { startCluster } from '../cluster/select.ts';
import { describeSchedule, type FaultName } from '../generator/index.ts';
import { models } from '../model/index.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../report/counterexample.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { INVARIANTS } from '../report/invariants.ts';
import { junitXml, type JunitCase } from '../report/junit.ts';
import { coverage, mergeCoverage, type CoverageTable } from '../report/coverage.ts';
import { writeCoverageFile, writeReportFiles } from '../report/html/index.ts';
import { writeMetricsFile } from '../report/metrics-file.ts';
import { chaos, type ChaosContext } from '../runner/chaos.ts';
import { writeFileSync } from 'node:fs';
import { jobChaosOptions, MAX_CLIENTS } from './chaos-options.ts';
import { progressReporter } from './progress.ts';
import { resultJson } from './summary.ts';
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
    const opened = await open(active, clients);
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
  const model = models[options.pattern] as Parameters<typeof chaos>[0]['model'];
  const progress = progressReporter(io, options.runs, options.json);
  const redisVersion = await cluster.redisVersion();
  const topology = String(await cluster.topology());
  const faults = faultsFor(cluster, options, io);
  const runId = randomBytes(4).toString('hex');
  if (cluster instanceof ExternalCluster) cluster.claimKeys(`*${runId}-*`);
  const coverageTables: CoverageTable[] = [];
  const historyFindings = new Set<string>();
  const onRun: ChaosContext['onRun'] = (t, last) => {
    progress.update(t);
    if (last.shrinking) return;
    coverageTables.push(coverage(last.history, model));
    const noscript = noscriptFinding(last.history);
    if (noscript && historyFindings.size === 0) historyFindings.add(noscript);
  };
  const outcome = await chaos(
    { cluster, subjects: opened.subjects, model, onRun },
    jobChaosOptions({ ...options, faults, runId }),
  );
  progress.done(outcome.tally);

  const dir = createRunFolder(options.reportRoot, options.command, outcome.seed);
  opened.saveStderr?.(dir);
  const violations = outcome.failure?.result.violations ?? [];
  const findings = [...opened.findings(), ...historyFindings];
  const invariants: InvariantStatus[] = INVARIANTS[options.pattern].map((invariant) => {
    const mine = violations.filter((v) => v.invariant === invariant).map((v) => ({ message: describeViolation(v), key: v.key }));
    return { invariant, passed: mine.length === 0, violations: mine };
  });
  // A verdict the checker could not reach is never a pass.
  const unknown = outcome.failure?.result.verdict === 'unknown';
  let counterexampleFile: string | undefined;
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
  }
  const passed = !outcome.failure && findings.length === 0;
  const cases: JunitCase[] = invariants.map((s) => ({
    name: s.invariant,
    passed: s.passed,
    message: s.violations[0]?.message,
    detail: s.violations.map((v) => v.message).join('\n'),
  }));
  if (unknown) cases.push({ name: 'checker-verdict', passed: false, message: 'the checker could not decide within its budget (unknown)' });
  for (const f of findings) cases.push({ name: 'implementation-behaviour', passed: false, message: f });
  writeFileSync(path.join(dir, 'junit.xml'), junitXml(`chaoslua ${options.command} ${options.pattern}`, cases, outcome.ms / 1000));
  const result: JobResult = { passed, dir, outcome, invariants, findings, impl: opened.impl, redisVersion, topology, counterexampleFile };
  writeJson(dir, 'result.json', resultJson(options, result));
  await writeExtras(dir, opened, coverageTables, io);
  return result;
}

/** Faults a cluster can take: on an external one only client-side faults, plus flush and failovers when allowed. */
function faultsFor(cluster: Cluster, options: JobOptions, io: Io): readonly FaultName[] {
  if (cluster.kind !== 'external') return options.faults;
  const possible = new Set<FaultName>(['lease-expiry', 'client-freeze']);
  if (cluster.destructive) for (const f of ['script-flush', 'busy-script', 'failover', 'failover-force', 'failover-takeover'] as const) possible.add(f);
  const dropped = options.faults.filter((f) => !possible.has(f));
  if (dropped.length && !options.json) {
    io.stderr.write(`chaoslua: on an external cluster these faults are not run: ${dropped.join(', ')}${cluster.destructive ? '' : ' (--allow-destructive allows script-flush, busy-script and failovers)'}\n`);
  }
  return options.faults.filter((f) => possible.has(f));
}

/** Metrics, coverage and the HTML page: useful, never allowed to change the verdict. */
async function writeExtras(dir: string, opened: OpenedImpl, tables: CoverageTable[], io: Io): Promise<void> {
  try {
    const texts = (await opened.metricsTexts?.()) ?? [];
    if (texts.length) writeMetricsFile(dir, texts);
    const merged = mergeCoverage(tables);
    if (merged) writeCoverageFile(dir, merged);
    writeReportFiles(dir);
  } catch (error) {
    io.stderr.write(`chaoslua: warning: the report page could not be written: ${(error as Error).message.split('\n')[0]}\n`);
  }
}

