/**
 * Histories with a real replication loss, by construction: run the model sequentially at chosen
 * instants and, at one instant inside a lossy fault, roll the key back to one of the states it
 * held before (a promoted replica's prefix). Leases keep their absolute deadlines across the
 * rollback, as Redis replicates TTLs as absolute times.
 */
import type { FaultRecord, History, OpRecord } from '../../../../src/history/types.ts';
import type { Model } from '../../../../src/model/types.ts';

export interface LossyPlan<I> {
  readonly ops: readonly { readonly input: I; readonly at: number; readonly leadMs: number; readonly lagMs: number }[];
  readonly fault: { readonly startedAt: number; readonly endedAt: number };
  /** Where in the fault window the rollback happens, 0..1. */
  readonly rollbackFraction: number;
  /** Which earlier state the key goes back to (modulo the number of states it had). */
  readonly rollbackTo: number;
}

export function lossyHistory<S, I, O>(model: Model<S, I, O>, plan: LossyPlan<I>): History<I, O> {
  const { startedAt, endedAt } = plan.fault;
  const rollbackAt = startedAt + (endedAt - startedAt) * plan.rollbackFraction;
  let lineage: { state: S; deadline: number }[] = [{ state: model.init(), deadline: Infinity }];
  let rolledBack = false;
  const order = plan.ops.map((_, i) => i).sort((a, b) => plan.ops[a].at - plan.ops[b].at || a - b);
  const ops: OpRecord<I, O>[] = [];
  for (const id of order) {
    const planned = plan.ops[id];
    if (!rolledBack && rollbackAt <= planned.at) {
      lineage = lineage.slice(0, (plan.rollbackTo % lineage.length) + 1);
      rolledBack = true;
    }
    let { state, deadline } = lineage[lineage.length - 1];
    const tag = model.leaseTag(state);
    if (tag !== null && deadline <= planned.at) {
      state = model.expire(state, tag);
      deadline = Infinity;
      lineage.push({ state, deadline });
    }
    const step = model.step(state, planned.input, id);
    const newTag = model.leaseTag(step.state);
    const newDeadline =
      newTag === null ? Infinity : newTag === id ? planned.at + (model.expiryMs(planned.input) ?? Infinity) : deadline;
    if (model.hashState(step.state) !== model.hashState(state))
      lineage.push({ state: step.state, deadline: newDeadline });
    ops.push({
      type: 'op',
      id,
      client: id,
      key: 'k',
      input: planned.input,
      invokedAt: planned.at - planned.leadMs,
      completedAt: planned.at + planned.lagMs,
      outcome: 'ok',
      output: step.output,
    });
  }
  const fault: FaultRecord = {
    type: 'fault',
    id: 1_000,
    kind: 'failover-takeover',
    target: 'node 0',
    startedAt,
    endedAt,
    lossy: true,
    detail: '',
  };
  return { ops, faults: [fault], topology: [] };
}
