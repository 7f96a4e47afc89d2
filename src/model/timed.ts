/**
 * Sequential mode with a known clock: one client, each operation taking effect at a known instant
 * `nowMs`. The timed state remembers when the current lease ends; the key is absent from that
 * instant on (Redis treats a key as expired once its deadline has passed).
 * When instants are only known within [sent, replied], use uncertain.ts instead.
 */
import type { Model, Step } from './types.ts';

export interface TimedState<S> {
  readonly state: S;
  /** When the lease stamped by `model.leaseTag(state)` ends, or null when the key has no expiry. */
  readonly deadline: number | null;
}

export function timed<S>(model: Model<S, any, any>, state: S = model.init()): TimedState<S> {
  if (model.leaseTag(state) !== null) throw new Error('timed: a state with a lease needs its deadline');
  return { state, deadline: null };
}

/** The timed state as it is at `nowMs`: expired if its deadline has passed. */
export function expireAt<S>(model: Model<S, any, any>, timedState: TimedState<S>, nowMs: number): TimedState<S> {
  const tag = model.leaseTag(timedState.state);
  if (tag === null || timedState.deadline === null || nowMs < timedState.deadline) return timedState;
  const state = model.expire(timedState.state, tag);
  return { state, deadline: model.leaseTag(state) === null ? null : timedState.deadline };
}

/** Apply `input` as operation `id` at `nowMs`: expire first if the deadline passed, step, then
 *  record the new deadline if the step stamped its own tag. */
export function stepAt<S, I, O>(
  model: Model<S, I, O>,
  timedState: TimedState<S>,
  input: I,
  id: number,
  nowMs: number,
): Step<TimedState<S>, O> {
  const before = expireAt(model, timedState, nowMs);
  const { state, output } = model.step(before.state, input, id);
  const tag = model.leaseTag(state);
  if (tag === null) return { state: { state, deadline: null }, output };
  if (tag === id) {
    const ms = model.expiryMs(input);
    if (ms === undefined)
      throw new Error(`${model.name}: ${model.describeInput(input)} stamped a lease but has no expiryMs`);
    return { state: { state, deadline: nowMs + ms }, output };
  }
  if (tag !== model.leaseTag(before.state)) {
    throw new Error(
      `${model.name}: ${model.describeInput(input)} as op ${id} left lease tag ${tag}, neither its own nor the previous one`,
    );
  }
  return { state: { state, deadline: before.deadline }, output };
}
