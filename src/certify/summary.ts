import path from 'node:path';
import { describeSchedule } from '../generator/index.ts';
import { capabilitiesJson, capabilitiesText } from '../patterns/capabilities.ts';
import { variantsJson, variantsText } from '../patterns/variants.ts';
import { answerShares, answersText } from './answers.ts';
import { serverText } from '../cluster/features.ts';
import type { OperationTally } from './evidence.ts';
import type { JobOptions, JobResult } from './types.ts';
import { corpusJson } from './corpus-report.ts';
import { gateLines } from './gate-summary.ts';
import { duplicatesLine } from './duplicates.ts';
import { describeDurability } from '../plan/durability.ts';
import { describeSettings } from '../plan/settings.ts';
import { describeTopology } from '../plan/topology.ts';
import { clockAssumptions } from './clock-assumption.ts';

/** result.json: the job's outcome, machine-readable. */
export function resultJson(options: JobOptions, r: JobResult) {
  return {
    command: options.command,
    passed: r.passed,
    pattern: options.pattern.name,
    impl: r.impl,
    ...(options.durability ? { durability: describeDurability(options.durability) } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    seed: r.outcome.seed,
    runs: r.outcome.tally.runs,
    discarded: discardedJson(r),
    shrinkRuns: r.outcome.tally.shrinks,
    ...(r.outcome.shrinking
      ? {
          shrinking: {
            seconds: Math.round(r.outcome.shrinking.ms) / 1000,
            clusters: r.outcome.shrinking.clusters,
            stopped: r.outcome.shrinking.stopped,
          },
        }
      : {}),
    operations: r.outcome.tally.ops,
    faults: r.outcome.tally.faultCounts,
    replicationLosses: r.outcome.tally.replicationLosses,
    duplicateEffects: r.duplicateEffects,
    duplicateFindings: r.duplicateFindings,
    replicationLossNotes: r.outcome.tally.replicationLossNotes ?? [],
    clockLosses: r.outcome.tally.clockLosses ?? 0,
    clockLossNotes: r.outcome.tally.clockLossNotes ?? [],
    clocks: clockAssumptions(options.faults, options.faultSettings),
    seconds: Math.round(r.outcome.ms) / 1000,
    interrupted: r.outcome.interrupted,
    incomplete: r.incomplete,
    probeNotes: r.probeNotes,
    ...(r.capabilities.declared ? { capabilities: capabilitiesJson(r.capabilities) } : {}),
    ...(r.capabilities.variants ? { variants: variantsJson(r.capabilities) } : {}),
    ...(r.keyMapping ? { keyMapping: r.keyMapping } : {}),
    invariants: r.invariants,
    findings: r.findings,
    evidence: evidenceJson(r),
    skippedFaults: r.skippedFaults,
    redisVersion: r.redisVersion,
    ...(r.server ? { server: r.server } : {}),
    topology: r.topology,
    report: r.dir,
    counterexample: r.counterexampleFile,
    shard: options.shard,
    corpus: corpusJson(r.corpus),
  };
}

/** Runs thrown away (the cluster needed a second heal), with why; they never count as judged. */
export const discardedJson = (r: JobResult) => ({
  runs: r.outcome.tally.discarded,
  causes: r.outcome.tally.discardCauses,
});

/** What the judged runs exercised: acknowledged outcomes per operation, witnessed transitions. */
export const evidenceJson = (r: JobResult) => ({
  minOkPerOperation: r.evidence.minOkPerOperation,
  operations: Object.fromEntries(r.evidence.operations.map((o) => [o.op, operationJson(o)])),
  transitions: r.evidence.transitions,
  missing: r.evidence.missing,
});

/** One operation's answers: counts (`info` = indeterminate) and each one's share of `issued`. */
export const operationJson = (o: OperationTally) => ({
  issued: o.issued,
  ok: o.ok,
  fail: o.fail,
  info: o.info,
  shares: answerShares(o),
});

/** The one-screen human summary. */
export function summaryText(options: JobOptions, r: JobResult): string {
  const t = r.outcome.tally;
  const faults =
    Object.entries(t.faultCounts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none fired';
  const lines = [
    `chaoslua ${options.command}: ${r.passed ? 'PASSED' : r.incomplete ? 'INCOMPLETE' : 'FAILED'} — ${options.pattern.name}, ${r.impl}${options.settings ? `, settings ${describeSettings(options.settings)}` : ''}${options.durability ? `, --durability ${describeDurability(options.durability)}` : ''}`,
    ...(options.pattern.source
      ? [`  pattern file: ${options.pattern.source.file} (sha256 ${options.pattern.source.sha256.slice(0, 16)}…)`]
      : []),
    ...(r.incomplete
      ? [
          `  the environment ended the job: ${t.runs} of ${options.runs} runs finished, kept as evidence in the report folder`,
        ]
      : []),
    `  runs ${t.runs}${r.outcome.interrupted ? ` (time limit reached before ${options.runs})` : ''}${t.shrinks ? ` + ${t.shrinks} shrinking` : ''}${t.discarded ? ` judged (${t.discarded} more discarded and replaced: ${t.discardCauses[0]})` : ''} · operations ${t.ops} · ${(r.outcome.ms / 1000).toFixed(1)} s · seed ${r.outcome.seed} · ${r.server ? serverText(r.server) : `Redis ${r.redisVersion}`}${options.topology ? ` · ${describeTopology(options.topology)}` : ''}${r.lanes > 1 ? ` · ${r.lanes} clusters` : ''}`,
    `  faults: ${faults}${r.skippedFaults.length ? ` · not run on this cluster: ${r.skippedFaults.join(', ')}` : ''}`,
    `  evidence: transitions ${Object.values(r.evidence.transitions).filter((n) => n > 0).length}/${Object.keys(r.evidence.transitions).length} witnessed; answers per operation (${r.evidence.minOkPerOperation} ok needed each):`,
    ...r.evidence.operations.map((o) => `    ${answersText(o)}`),
    ...(r.capabilities.declared ? [`  capabilities: ${capabilitiesText(options.pattern, r.capabilities)}`] : []),
    ...(r.capabilities.variants ? [`  semantics declared: ${variantsText(options.pattern, r.capabilities)}`] : []),
    ...(r.keyMapping ? [`  keys: the implementation's own, ${r.keyMapping} (probes read those)`] : []),
    `  replication losses (not violations): ${t.replicationLosses}`,
    ...(t.clockLosses ? [`  clock losses (a moved server clock, not violations): ${t.clockLosses}`] : []),
    ...(t.clockLossNotes ?? []).map((note) => `    ${note}`),
    ...clockAssumptions(options.faults, options.faultSettings).map((line) => `  clocks: ${line}`),
    duplicatesLine(r.duplicateEffects),
    ...r.duplicateFindings.map((f) => `  note ${f}`),
    ...(t.replicationLossNotes ?? []).map((note) => `    ${note}`),
    ...r.invariants.map((s) =>
      s.notApplicable
        ? `  n/a  ${s.invariant}: ${s.notApplicable}`
        : `  ${s.passed ? 'ok  ' : 'FAIL'} ${s.invariant}${s.passed ? '' : `: ${s.violations[0].message}`}${s.barelyWitnessed ? ` (${s.barelyWitnessed})` : ''}`,
    ),
    ...(r.probeNotes.length
      ? [`  probes: ${r.probeNotes.length} read under another name or skipped, e.g. ${r.probeNotes[0]}`]
      : []),
    ...r.findings.map((f) => (f.startsWith('environment:') ? `  FAIL ${f}` : `  FAIL implementation: ${f}`)),
    ...gateLines(options, r),
  ];
  if (r.outcome.failure) {
    const f = r.outcome.failure;
    const fromCorpus = r.corpus?.entries.some((e) => e.failure === f) ?? false;
    const shrunk = r.outcome.shrinking;
    const cut =
      shrunk?.stopped === 'time'
        ? ` (shrinking stopped at its time limit after ${(shrunk.ms / 1000).toFixed(1)} s; --shrink-time for longer)`
        : '';
    lines.push(
      fromCorpus
        ? `  a saved counterexample failed again (${f.firstFailure.seconds.toFixed(1)} s); its schedule:`
        : `  first failure after ${f.firstFailure.run} runs (${f.firstFailure.seconds.toFixed(1)} s); shrunk schedule${cut}:`,
    );
    const { model } = options.pattern;
    lines.push(
      ...describeSchedule(f.schedule, (i) => model.describeInput(i))
        .split('\n')
        .map((l) => `    ${l}`),
    );
    if (f.result.verdict === 'unknown')
      lines.push('  the checker ran out of search budget: verdict unknown, not a pass');
    lines.push(`  replay: chaoslua replay ${r.counterexampleFile}`);
  }
  lines.push(`  report: ${path.join(r.dir, 'report.html')}`);
  return lines.join('\n') + '\n';
}
