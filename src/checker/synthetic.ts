/**
 * Legal histories by construction, for the checker's own tests and benchmark: run the model
 * sequentially at chosen instants (with leases really running out at their deadlines), then give
 * each operation an interval around its instant. A correct checker must call every one of them ok.
 */
import type { History, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';

/**
 * ok: took effect at `at`, reply seen. info-applied: took effect at `at`, reply lost (the client may
 * have given up before `at`). info-lost: reply lost, never took effect. fail: never took effect.
 */
export type PlannedOutcome = 'ok' | 'info-applied' | 'info-lost' | 'fail';

export interface PlannedOp<I> {
  readonly key: string;
  readonly client: number;
  readonly input: I;
  /** The instant the operation takes effect (its linearization point). */
  readonly at: number;
  /** invokedAt = at − leadMs. */
  readonly leadMs: number;
  /** ok and fail: completedAt = at + lagMs. info: completedAt = invokedAt + lagMs, possibly before `at`. */
  readonly lagMs: number;
  readonly outcome: PlannedOutcome;
}

export function linearHistory<S, I, O>(model: Model<S, I, O>, plan: readonly PlannedOp<I>[]): History<I, O> {
  const order = plan.map((_, i) => i).sort((a, b) => plan[a].at - plan[b].at || a - b);
  const states = new Map<string, { state: S; deadline: number }>();
  const ops: OpRecord<I, O>[] = new Array(plan.length);
  for (const id of order) {
    const planned = plan[id];
    const invokedAt = planned.at - planned.leadMs;
    const info = planned.outcome === 'info-applied' || planned.outcome === 'info-lost';
    const completedAt = info ? invokedAt + planned.lagMs : planned.at + planned.lagMs;
    const record = (outcome: OpRecord['outcome'], output: O | undefined, error: string | undefined): OpRecord<I, O> =>
      // One literal shape for every record: objects built by spreading are several times slower to read.
      ({
        type: 'op',
        id,
        client: planned.client,
        key: planned.key,
        input: planned.input,
        invokedAt,
        completedAt,
        outcome,
        output,
        error,
      });
    if (planned.outcome === 'fail' || planned.outcome === 'info-lost') {
      ops[id] =
        planned.outcome === 'fail' ? record('fail', undefined, 'refused') : record('info', undefined, 'timeout');
      continue;
    }
    const current = states.get(planned.key) ?? { state: model.init(), deadline: Infinity };
    let state = current.state;
    const tag = model.leaseTag(state);
    // The lease really runs out at its deadline, which lies inside the checker's expiry window.
    if (tag !== null && current.deadline <= planned.at) state = model.expire(state, tag);
    const step = model.step(state, planned.input, id);
    const newTag = model.leaseTag(step.state);
    const deadline =
      newTag === null
        ? Infinity
        : newTag === id
          ? planned.at + (model.expiryMs(planned.input) ?? Infinity)
          : current.deadline;
    states.set(planned.key, { state: step.state, deadline });
    ops[id] = planned.outcome === 'ok' ? record('ok', step.output, undefined) : record('info', undefined, 'timeout');
  }
  ops.sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  return { ops, faults: [], topology: [] };
}
