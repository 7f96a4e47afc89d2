/**
 * `lost-acknowledged-write`: a write that WAIT acknowledged on N replicas, lost to a fault that failed
 * at most N nodes. Replication loss is forgiven because replication is asynchronous; a write a replica
 * confirmed holding is not asynchronous any more, so when only a rollback of such a write explains the
 * history, the implementation's claim of durability was false (it answered acknowledged without
 * waiting, or ignored WAIT's answer). Decided by two relaxed searches: one in which those writes are
 * out of every rollback's reach (guarded), and, when that fails, one in which they are not; only the
 * second explaining the history makes the violation. More failed nodes than replicas that
 * acknowledged, an unknown count (a restart without persistence) or no WAIT at all: replication loss.
 */
import type { FaultRecord, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';
import { ms, opPhrase } from './describe.ts';
import { protects } from './problem.ts';
import type { Rollback } from './search.ts';
import type { Violation } from './types.ts';

export const LOST_ACKNOWLEDGED_WRITE = 'lost-acknowledged-write';

export function hasAcknowledgedWrites(ops: readonly OpRecord[]): boolean {
  return ops.some((op) => op.outcome === 'ok' && (op.acknowledgedReplicas ?? 0) >= 1);
}

/** The violation, from the rollbacks of the unguarded search that explained the key. */
export function lostAcknowledgedWrite<S, I, O>(
  model: Model<S, I, O>,
  key: string,
  ops: readonly OpRecord<I, O>[],
  faults: readonly FaultRecord[],
  rollbacks: readonly Rollback<S>[],
): Violation<I, O> {
  // The guarded search failed, so every explanation discards a protected write: this one's rollbacks name it.
  const lost = rollbacks.flatMap((rollback) =>
    rollback.discarded
      .map((i) => ops[i])
      .filter((op) => protects(op.acknowledgedReplicas ?? 0, faults[rollback.fault]))
      .map((op) => ({ op, rollback })),
  );
  const first = lost[0] ?? {
    op: ops.find((op) => op.outcome === 'ok' && (op.acknowledgedReplicas ?? 0) >= 1)!,
    rollback: rollbacks[0],
  };
  const fault = first.rollback ? faults[first.rollback.fault] : undefined;
  const replicas = first.op.acknowledgedReplicas ?? 0;
  const faultText = fault
    ? `${fault.kind} on ${fault.target} (fault ${fault.id}, ${ms(fault.startedAt)}–${ms(fault.endedAt)} ms), which failed ${fault.failedNodes} node${fault.failedNodes === 1 ? '' : 's'},`
    : 'a lossy fault';
  const message =
    `${opPhrase(model, first.op)} was acknowledged by WAIT on ${replicas} replica${replicas === 1 ? '' : 's'}, ` +
    `yet only ${faultText} discarding it explains what was read after: a write held by ${replicas} replica${replicas === 1 ? '' : 's'} ` +
    `must survive ${replicas === 1 ? 'one failed node' : `${replicas} failed nodes`}, so the acknowledgement was not a replica's.`;
  const witness = [...new Set(lost.map((l) => l.op))].sort((a, b) => a.invokedAt - b.invokedAt);
  return {
    invariant: LOST_ACKNOWLEDGED_WRITE,
    message,
    key,
    witness: witness.length ? witness : [first.op],
    subHistory: ops,
    modelState: first.rollback
      ? `${model.describeState(first.rollback.from)}, rolled back to ${model.describeState(first.rollback.to)}`
      : 'unknown',
    expected: `the acknowledged write kept (${model.describeInput(first.op.input)})`,
  };
}
