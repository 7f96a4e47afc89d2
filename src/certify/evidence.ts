/**
 * Evidence before a certificate: a history in which nothing happened is trivially linearizable, so
 * "no violation" alone proves nothing. A certificate also needs the implementation to have been
 * exercised: every operation of the pattern acknowledged (ok) a minimum number of times, and every
 * transition of the model that the generator reaches with the faults asked witnessed at least once
 * (the transition coverage of coverage.json). Pure: counts come from the judged runs' histories.
 */
import type { FaultName } from '../faults/index.ts';
import type { History } from '../history/types.ts';
import { reachableTransitions, type Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern, RequiredTransition } from '../patterns/types.ts';
import type { CoverageTable } from '../report/coverage.ts';

/**
 * The operations of a pattern, as the model's inputs name them (`input.op`); with capabilities,
 * only those the implementation supports (a certificate asks nothing of an operation it lacks).
 */
export const operationNames = (pattern: AnyPattern, caps?: Capabilities): readonly string[] =>
  Object.keys(pattern.operations).filter((op) => caps === undefined || Object.hasOwn(caps.operations, op));

/**
 * Acknowledged outcomes each operation needs, per judged run: one per four runs (at least one in
 * all). A rate, not a count, so a longer job asks for proportionally more evidence and a short one
 * is not failed for its size. Measured with the default budget (40 runs, every fault), the rarest
 * operation of the reference is acknowledged about 5.6 times a run (docs/certificate.md gives the
 * figures of the reference, the alternatives and the examples); an implementation that answers
 * nearly everything with an error does not reach one in four.
 */
export const OK_PER_RUN = 0.25;

export const minOkPerOperation = (runs: number) => Math.max(1, Math.ceil(runs * OK_PER_RUN));

/**
 * Transitions a certificate needs witnessed (each pattern's `requiredTransitions`), with the faults
 * the generator needs to reach them (none listed: any schedule reaches it). Expiries come only from sessions that outlive a lease or a
 * window (lease-expiry, client-freeze). A transition too rare for the default 40-run budget to
 * witness every time is not required (coverage.json still shows it), or correct implementations
 * would be refused by luck: "completed → absent by expiry" needs a session to start after a
 * completed record's TTL, and "pending → absent by release" an owner releasing a lease it still
 * holds, seen in 9 of 40 runs of the reference and 6 times in 40 runs of an alternative (a miss
 * chance near 1% at 40 runs). Their operations still need acknowledged outcomes, and the checker
 * judges every answer.
 */
export const requiredTransitionsOf = (pattern: AnyPattern): readonly RequiredTransition[] =>
  pattern.requiredTransitions;

/** The budget the thresholds were measured with: below it a shortfall is first of all a small budget. */
export const MEASURED_BUDGET_RUNS = 40;

export interface OperationTally {
  readonly op: string;
  issued: number;
  ok: number;
  fail: number;
  info: number;
}

export interface Evidence {
  /** Judged runs the counts come from. */
  readonly runs: number;
  readonly operations: readonly OperationTally[];
  /** Required transition -> times witnessed (all columns of the coverage table). */
  readonly transitions: Readonly<Record<string, number>>;
  readonly minOkPerOperation: number;
  /** What was never (or too rarely) observed, one sentence each; empty when the evidence suffices. */
  readonly missing: readonly string[];
}

/** Operation counts of judged histories, per operation of the pattern. */
export function tallyOperations(
  pattern: AnyPattern,
  histories: Iterable<History>,
  caps?: Capabilities,
): OperationTally[] {
  const byOp = new Map<string, OperationTally>(
    operationNames(pattern, caps).map((op) => [op, { op, issued: 0, ok: 0, fail: 0, info: 0 }]),
  );
  for (const history of histories) {
    for (const record of history.ops) {
      // What an implementation did inside another call (a give-back) was never asked for.
      if (record.insideOf !== undefined) continue;
      const name = (record.input as { op?: unknown } | null)?.op;
      const tally = typeof name === 'string' ? byOp.get(name) : undefined;
      if (!tally) continue;
      tally.issued++;
      tally[record.outcome]++;
    }
  }
  return [...byOp.values()];
}

/** Required transitions for the faults asked and, with capabilities, the operations supported. */
export function requiredTransitions(pattern: AnyPattern, faults: readonly FaultName[], caps?: Capabilities): string[] {
  const reachable =
    caps === undefined ? requiredTransitionsOf(pattern) : reachableTransitions(requiredTransitionsOf(pattern), caps);
  return reachable
    .filter((t) => !t.needsAnyOf || t.needsAnyOf.some((f) => faults.includes(f)))
    .map((t) => t.transition);
}

/** Judge the evidence of a job: what operations were acknowledged, which transitions were witnessed. */
export function judgeEvidence(input: {
  readonly pattern: AnyPattern;
  readonly faults: readonly FaultName[];
  readonly runs: number;
  readonly operations: readonly OperationTally[];
  readonly coverage: CoverageTable | undefined;
  /** The implementation's capabilities: only the transitions its operations reach are required. */
  readonly capabilities?: Capabilities;
}): Evidence {
  const missing: string[] = [];
  const minOk = minOkPerOperation(input.runs);
  const issued = input.operations.reduce((n, o) => n + o.issued, 0);
  const ok = input.operations.reduce((n, o) => n + o.ok, 0);
  if (ok === 0) missing.push(`no operation succeeded: 0 of ${issued} ok`);
  else {
    for (const o of input.operations) {
      if (o.ok < minOk) {
        missing.push(
          `${o.op} succeeded ${o.ok} time${o.ok === 1 ? '' : 's'} of ${o.issued}, fewer than the ${minOk} a certificate of ${input.runs} run${input.runs === 1 ? '' : 's'} needs (one per ${1 / OK_PER_RUN} runs)${errorShare(o)}`,
        );
      }
    }
  }
  const witnessed = new Map((input.coverage?.rows ?? []).map((r) => [r.transition, r.total]));
  const transitions: Record<string, number> = {};
  for (const t of requiredTransitions(input.pattern, input.faults, input.capabilities)) {
    transitions[t] = witnessed.get(t) ?? 0;
    if (ok > 0 && transitions[t] === 0) missing.push(`transition ${t.replace(' → ', ' -> ')} never observed`);
  }
  return { runs: input.runs, operations: input.operations, transitions, minOkPerOperation: minOk, missing };
}

const errorShare = (o: OperationTally) => (o.fail + o.info > 0 ? ` (${o.fail} refused, ${o.info} indeterminate)` : '');

/** The findings a job reports for missing evidence: one per gap, the budget named when it was small. */
export function evidenceFindings(evidence: Evidence, runsAsked: number): string[] {
  if (evidence.missing.length === 0) return [];
  const budget =
    runsAsked < MEASURED_BUDGET_RUNS
      ? ` (a budget of ${runsAsked} run${runsAsked === 1 ? '' : 's'} may be too small for the evidence a certificate needs: the thresholds hold with the default ${MEASURED_BUDGET_RUNS})`
      : '';
  return evidence.missing.map((m) => `evidence: ${m}${budget}`);
}
