/**
 * Duplicate effects: operations that only a second execution explains. A client that resends an
 * unanswered command on reconnect (ioredis does by default) may run it twice, and the checker lets
 * a second execution take effect inside the operation's window (problem.ts, GHOST). That is right
 * for the verdict, but a user wants to know when it happened: a rate-limit hit counted twice.
 *
 * "Only" is meant strictly. The search keeps the first linearization it finds, and it may place a
 * second execution where another order needs none; counting those would over-state. So each one the
 * linearization found placed with an effect is re-checked with that operation's second execution
 * left out: the operation is counted when that re-check is illegal (no order explains the key's
 * history without it). A re-check that runs out of budget counts nothing and is returned as
 * undecided. When two operations could each explain the history alone (either A or B ran twice),
 * neither is counted: this under-states, never over-states. Pure, like the rest of the checker.
 */
import type { FaultRecord, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';
import { buildKeyProblem } from './problem.ts';
import { searchKey } from './search.ts';
import type { PrunerFactory } from './search/pruning.ts';
import type { DuplicateEffects, ResolvedCheckOptions } from './types.ts';

export interface NeededSecondExecutions {
  /** Indices into ops of the operations whose second execution every linearization needs. */
  readonly needed: readonly number[];
  /** Indices into ops whose re-check ran out of budget: not counted. */
  readonly undecided: readonly number[];
  readonly explored: number;
}

export function neededSecondExecutions<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly OpRecord<I, O>[],
  placed: readonly number[],
  cuts: readonly FaultRecord[],
  options: ResolvedCheckOptions,
  deadline: number,
  /** The spec's pruning (CheckSpec.pruning); absent: the model's. */
  pruning?: readonly PrunerFactory<S, I, O>[],
): NeededSecondExecutions {
  const needed: number[] = [];
  const undecided: number[] = [];
  let explored = 0;
  for (const op of [...new Set(placed)]) {
    const without = searchKey(
      buildKeyProblem(model, ops, options.eps, [], cuts, false, op),
      options.budget,
      false,
      deadline,
      pruning,
    );
    explored += without.explored;
    if (without.verdict === 'illegal') needed.push(op);
    else if (without.verdict === 'unknown') undecided.push(op);
  }
  return { needed, undecided, explored };
}

/** The input's operation name; a model whose inputs carry none groups them under `op`. */
export function operationKind(input: unknown): string {
  const name = (input as { op?: unknown } | null)?.op;
  return typeof name === 'string' ? name : 'op';
}

export function groupByKind(ops: readonly OpRecord[]): DuplicateEffects {
  const byKind: Record<string, number[]> = {};
  for (const op of ops) (byKind[operationKind(op.input)] ??= []).push(op.id);
  for (const ids of Object.values(byKind)) ids.sort((a, b) => a - b);
  return byKind;
}
