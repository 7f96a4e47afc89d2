/**
 * A job's second step, judge: what its runs showed becomes its verdict. Pure: no I/O, no clock;
 * the same run judged twice gives the same verdict. A certificate needs no violation and no
 * finding, the runs asked judged, and evidence that the implementation was exercised.
 */
import { describeViolation, LOST_ACKNOWLEDGED_WRITE } from '../checker/index.ts';
import type { FaultName } from '../faults/index.ts';
import { applicability, type Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { barelyWitnessed } from './answers.ts';
import type { ChaosOutcome } from './chaos.ts';
import { duplicateFindings, tallyDuplicates, type DuplicateTally } from './duplicates.ts';
import { evidenceFindings, judgeEvidence, type Evidence } from './evidence.ts';
import { FINISHED_RUNS_FILE } from './finished-runs.ts';
import type { Observations } from './observations.ts';

export interface InvariantStatus {
  readonly invariant: string;
  /** Never true for an invariant the declared capabilities cannot witness (notApplicable says why). */
  readonly passed: boolean;
  /** Present when no supported operation, at its declared level, could show this invariant broken. */
  readonly notApplicable?: string;
  readonly violations: { readonly message: string; readonly key: string }[];
  /** Why the invariant was barely witnessed (its operations' answers were mostly indeterminate). */
  readonly barelyWitnessed?: string;
}

/** What the judge is asked: the job's promise, and what its runs showed. */
export interface JudgeInput {
  readonly pattern: AnyPattern;
  readonly capabilities: Capabilities;
  /** `certify` promises the runs it was asked for and asks for evidence; `run` only looks for violations. */
  readonly command: 'run' | 'certify';
  readonly runsAsked: number;
  readonly timeLimitMs: number;
  /** The faults the job ran (an external cluster runs fewer than asked). */
  readonly faults: readonly FaultName[];
  /** --path: one shrunk schedule re-run, whatever --runs says. */
  readonly replayingPath: boolean;
  /** A shard judges a part of the budget: `merge` judges the evidence of all the shards together. */
  readonly shard: boolean;
  readonly durability: boolean;
  /** Why the topology cannot witness lost-acknowledged-write under --durability (fewer replicas than WAIT asks). */
  readonly durabilityNotApplicable?: string;
  readonly outcome: ChaosOutcome;
  readonly observations: Observations;
  /** What opening and running the implementation found (crash, hang, garbage answers). */
  readonly implementationFindings: readonly string[];
  /** False when the implementation could not be opened (its finding says why). */
  readonly opened: boolean;
}

export interface Judgement {
  /** No violation, no finding, the runs asked judged, evidence enough (a `certify`). */
  readonly passed: boolean;
  readonly invariants: readonly InvariantStatus[];
  readonly findings: readonly string[];
  /** What the judged runs exercised, and what a certificate still lacked. */
  readonly evidence: Evidence;
  /** The environment ended the job before its runs were done (the first finding says what failed):
   *  the finished runs are kept in finished-runs.jsonl, and the job is never certified. */
  readonly incomplete: boolean;
  /** Operations only a second execution explains, per operation, over the judged runs. */
  readonly duplicateEffects: DuplicateTally;
  /** The findings the pattern declares for duplicate effects (those it marks a violation are in `findings` too). */
  readonly duplicateFindings: readonly string[];
  /** The checker could not decide a run within its budget: never a pass. */
  readonly unknown: boolean;
}

export function judgeJob(input: JudgeInput): Judgement {
  const { outcome, observations, pattern, capabilities } = input;
  const evidence = judgeEvidence({
    pattern,
    faults: input.faults,
    runs: outcome.tally.runs,
    operations: observations.operations,
    coverage: observations.coverage,
    capabilities,
  });
  // The environment ending a job is its first finding; a budget or evidence shortfall then follows
  // from it and is not the implementation's to answer for.
  const incomplete = outcome.environmentFailure ? environmentFinding(outcome, input.runsAsked) : undefined;
  const duplicateEffects = tallyDuplicates(pattern, observations.duplicateRuns);
  const duplicates = duplicateFindings(pattern, duplicateEffects);
  const findings = [
    ...(incomplete ? [incomplete] : []),
    ...input.implementationFindings,
    ...observations.historyFindings,
    // Only a duplicate the pattern marks a violation withholds the certificate; the others are reported beside it.
    ...duplicates.filter((d) => d.violation).map((d) => d.text),
    ...(input.opened && !incomplete ? budgetFindings(input) : []),
  ];
  // Missing evidence matters only when nothing else failed: a violation or a finding already
  // explains the verdict, and a job cut short by its first failure never had its full budget. It
  // withholds a certificate; `run` (looking for violations in the reference) shows it, no more.
  if (input.command === 'certify' && !input.shard && !outcome.failure && findings.length === 0)
    findings.push(...evidenceFindings(evidence, input.runsAsked));
  return {
    passed: !outcome.failure && findings.length === 0,
    invariants: invariantStatuses(input),
    findings,
    evidence,
    incomplete: incomplete !== undefined,
    duplicateEffects,
    duplicateFindings: duplicates.map((d) => d.text),
    unknown: outcome.failure?.result.verdict === 'unknown',
  };
}

/** Each invariant the job certifies: passed, broken (with its violations), or not applicable. */
function invariantStatuses(input: JudgeInput): InvariantStatus[] {
  const violations = input.outcome.failure?.result.violations ?? [];
  const applicable = new Map(
    applicability(input.pattern, input.capabilities).map((a) => [a.invariant, a.notApplicable]),
  );
  if (input.durabilityNotApplicable !== undefined)
    applicable.set(LOST_ACKNOWLEDGED_WRITE, input.durabilityNotApplicable);
  // With --durability the job also certifies that no write WAIT acknowledged was lost (src/checker/lost-acknowledged.ts).
  const lostWrites = input.durability || violations.some((v) => v.invariant === LOST_ACKNOWLEDGED_WRITE);
  const judged = [...input.pattern.invariants, ...(lostWrites ? [LOST_ACKNOWLEDGED_WRITE] : [])];
  return judged.map((invariant) => {
    const mine = violations
      .filter((v) => v.invariant === invariant)
      .map((v) => ({ message: describeViolation(v), key: v.key }));
    const notApplicable = applicable.get(invariant);
    // Nothing the job saw could have shown it broken: reported as such, never as passed.
    if (notApplicable !== undefined && mine.length === 0)
      return { invariant, passed: false, notApplicable, violations: [] };
    const barely = barelyWitnessed(input.pattern, invariant, input.observations.operations);
    return { invariant, passed: mine.length === 0, violations: mine, ...(barely ? { barelyWitnessed: barely } : {}) };
  });
}

/** The finding of a job the environment ended: what failed, and how many runs had finished. */
function environmentFinding(outcome: ChaosOutcome, runsAsked: number): string {
  const t = outcome.tally;
  return `environment: ${outcome.environmentFailure}; the job stopped after ${t.runs} of ${runsAsked} runs finished (kept in ${FINISHED_RUNS_FILE})`;
}

/**
 * A certificate speaks for the runs asked, judged: runs discarded (the cluster needed a second heal)
 * are replaced, and a job that still judged fewer, or hit its time limit first, says so and is not
 * certified.
 */
function budgetFindings(input: JudgeInput): string[] {
  const { outcome, runsAsked } = input;
  const t = outcome.tally;
  if (outcome.failure || t.runs >= runsAsked || input.replayingPath) return [];
  const discarded = t.discarded ? `; ${t.discarded} discarded (${t.discardCauses[0]})` : '';
  if (outcome.interrupted) {
    // `run` is told how long to look; `certify` promises the runs it was asked for.
    if (input.command === 'run') return [];
    return [
      `budget: the time limit (${input.timeLimitMs / 1000} s) was reached after ${t.runs} of ${runsAsked} runs judged${discarded}: raise --time-limit or lower --runs`,
    ];
  }
  return [`budget: only ${t.runs} of ${runsAsked} runs were judged${discarded}`];
}
