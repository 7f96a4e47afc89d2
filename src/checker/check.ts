import type { FaultRecord, History, OpRecord } from '../history/types.ts';
import { overlaps } from '../history/overlap.ts';
import { groupByKind } from './duplicates.ts';
import { checkKey } from './key-check.ts';
import { resolveCheckOptions } from './options.ts';
import { partitionByKey } from './partition.ts';
import { probeViolations } from './probes.ts';
import { specOf, type Checkable } from './spec.ts';
import type { CheckOptions, CheckResult, KeyVerdict, ReplicationLoss, Verdict, Violation } from './types.ts';

/**
 * Is the history linearizable against the model, key by key, allowing for expiry windows and
 * indeterminate outcomes? Pure: no I/O, no clock except to report its own duration. Violations are
 * named by the spec's classifier (a pattern's invariants); a bare model names model-conformance only.
 */
export function check<I, O>(history: History<I, O>, checkable: Checkable, options?: CheckOptions): CheckResult<I, O> {
  // Typed loosely: a history read from a file or a process is judged by whatever spec it names.
  const spec = specOf<unknown, I, O>(checkable);
  const resolved = resolveCheckOptions(options);
  requireUniqueIds(history);
  const started = performance.now();
  const lossyFaults = history.faults.filter((fault) => fault.lossy);
  const cuts = history.faults.filter((fault) => fault.cutsConnections === true);
  const clockFaults = history.faults.filter((fault) => fault.clockOffsets?.length);
  const keys: KeyVerdict[] = [];
  const violations: Violation<I, O>[] = [];
  const replicationLosses: ReplicationLoss<I, O>[] = [];
  const clockLosses: ReplicationLoss<I, O>[] = [];
  const duplicates: OpRecord<I, O>[] = [];
  let statesExplored = 0;
  let minimiseStatesExplored = 0;
  let duplicateStatesExplored = 0;

  const ops = cuts.length === 0 ? history.ops : history.ops.map((op) => refusedAfterCut(op, cuts));
  for (const [key, keyOps] of partitionByKey(ops)) {
    const result = checkKey(spec, key, keyOps, lossyFaults, resolved, cuts, clockFaults);
    keys.push(result.verdict);
    if (result.violation) violations.push(result.violation);
    if (result.loss) replicationLosses.push(result.loss);
    if (result.clockLoss) clockLosses.push(result.clockLoss);
    if (result.duplicates) duplicates.push(...result.duplicates);
    statesExplored += result.explored;
    minimiseStatesExplored += result.minimiseExplored;
    duplicateStatesExplored += result.duplicateExplored ?? 0;
  }

  for (const violation of probeViolations(history, spec)) {
    violations.push(violation);
    const at = keys.findIndex((k) => k.key === violation.key);
    const marked: KeyVerdict = {
      ...(keys[at] ?? { key: violation.key, ops: 0, statesExplored: 0 }),
      verdict: 'illegal',
      note: violation.message,
    };
    if (at >= 0) keys[at] = marked;
    else keys.push(marked);
  }

  return {
    verdict: overallVerdict(keys),
    keys,
    violations,
    replicationLosses,
    ...(clockLosses.length ? { clockLosses } : {}),
    duplicateEffects: groupByKind(duplicates),
    stats: {
      ops: history.ops.length,
      keys: keys.length,
      statesExplored,
      maxKeyStates: keys.reduce((most, k) => Math.max(most, k.statesExplored), 0),
      minimiseStatesExplored,
      duplicateStatesExplored,
      ms: performance.now() - started,
    },
  };
}

/**
 * A refusal (BUSY, MOVED...) says the last attempt did not run, not the first: a command in flight
 * when a connection was cut is resent on reconnect, and the copy sent before the cut may have run.
 * So a failed operation overlapping such a fault is indeterminate.
 */
function refusedAfterCut<I, O>(op: OpRecord<I, O>, cuts: readonly FaultRecord[]): OpRecord<I, O> {
  if (op.outcome !== 'fail' || !cuts.some((c) => overlaps(c, op.invokedAt, op.completedAt))) return op;
  return { ...op, outcome: 'info', error: `${op.error ?? 'refused'} (after a cut connection: may have run before it)` };
}

/** Illegal anywhere beats unknown anywhere, which beats replication loss, then clock loss; ok needs every key ok. */
export function overallVerdict(keys: readonly KeyVerdict[]): Verdict {
  const seen = new Set(keys.map((k) => k.verdict));
  for (const verdict of ['illegal', 'unknown', 'replication-loss', 'clock-loss'] as const)
    if (seen.has(verdict)) return verdict;
  return 'ok';
}

/** Op ids are the models' lease tags: a repeated id would let one op's expiry end another's lease. */
function requireUniqueIds(history: History<unknown, unknown>): void {
  const { ops } = history;
  // Ids are nearly always small integers (a runner counts them): a byte per id then beats a Set,
  // which took 15–60 ms of a 100,000-op check (bench/checker.ts).
  let max = -1;
  for (const op of ops) max = Number.isInteger(op.id) && op.id >= 0 ? Math.max(max, op.id) : Infinity;
  const seen = max <= 8 * ops.length + 1024 ? new Uint8Array(max + 1) : undefined;
  const seenAny = seen === undefined ? new Set<number>() : undefined;
  for (const op of ops) {
    const repeated = seen !== undefined ? seen[op.id]++ > 0 : seenAny!.has(op.id) || (seenAny!.add(op.id), false);
    if (repeated) throw new RangeError(`history: op id ${op.id} appears more than once; ids must be unique`);
  }
}
