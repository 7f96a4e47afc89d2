/**
 * Sequential tracking when an operation's instant is only known to lie in [sentAt, repliedAt]:
 * the lease it stamps ends somewhere in [sentAt + ms - slack, repliedAt + ms + slack].
 * An operation whose interval overlaps that window of the current lease may or may not have
 * found the key expired; both branches are kept, and the reply keeps only the branches it fits.
 * A driver that keeps its operations clear of every window never branches, and then this is
 * exactly "compare each reply with the model's output at once".
 */
import type { Model } from './types.ts';

/** When the lease stamped by operation `tag` may end, on the driver's clock. */
export interface LeaseWindow {
  readonly tag: number;
  readonly from: number;
  readonly to: number;
}

export interface Candidate<S> {
  readonly state: S;
  /** Null when the key has no expiry. */
  readonly lease: LeaseWindow | null;
}

export interface Observation {
  readonly sentAt: number;
  readonly repliedAt: number;
  readonly observed: unknown;
  /** Clock granularity and skew allowance added to both ends of a new lease window. */
  readonly slackMs: number;
}

export interface Observed<S, O> {
  /** States consistent with everything seen so far; empty means the reply fits no branch. */
  readonly candidates: Candidate<S>[];
  /** What the model allowed for this operation, for the counterexample. */
  readonly expected: O[];
}

export function initialCandidates<S>(model: Model<S, any, any>): Candidate<S>[] {
  return [{ state: model.init(), lease: null }];
}

/** The states the key may be in during [sentAt, repliedAt]. */
function branchesAt<S>(model: Model<S, any, any>, c: Candidate<S>, sentAt: number, repliedAt: number): Candidate<S>[] {
  if (c.lease === null || repliedAt < c.lease.from) return [c];
  const expired: Candidate<S> = { state: model.expire(c.state, c.lease.tag), lease: null };
  if (sentAt > c.lease.to) return [expired];
  return [c, expired];
}

export function observeStep<S, I, O>(
  model: Model<S, I, O>,
  candidates: readonly Candidate<S>[],
  input: I,
  id: number,
  observation: Observation,
): Observed<S, O> {
  const { sentAt, repliedAt, observed, slackMs } = observation;
  const next = new Map<string, Candidate<S>>();
  const expected: O[] = [];
  for (const candidate of candidates) {
    for (const before of branchesAt(model, candidate, sentAt, repliedAt)) {
      const { state, output } = model.step(before.state, input, id);
      expected.push(output);
      if (!model.outputMatches(output, observed)) continue;
      const tag = model.leaseTag(state);
      let lease: LeaseWindow | null = before.lease;
      if (tag === null) lease = null;
      else if (tag === id) {
        const ms = model.expiryMs(input);
        if (ms === undefined)
          throw new Error(`${model.name}: ${model.describeInput(input)} stamped a lease but has no expiryMs`);
        lease = { tag: id, from: sentAt + ms - slackMs, to: repliedAt + ms + slackMs };
      }
      const key = `${model.hashState(state)}|${lease ? `${lease.from},${lease.to}` : '-'}`;
      next.set(key, { state, lease });
    }
  }
  return { candidates: [...next.values()], expected };
}

/** Every lease window any candidate may still be waiting on. */
export function leaseWindows<S>(candidates: readonly Candidate<S>[]): LeaseWindow[] {
  return candidates.flatMap((c) => (c.lease === null ? [] : [c.lease]));
}
