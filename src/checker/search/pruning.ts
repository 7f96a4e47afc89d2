/**
 * Pruning supplied from outside the search: what a model or pattern knows about its answers that
 * lets the search drop a configuration no completion exists from, long before the search would
 * find that out by trying every order. The search calls a Pruner at fixed points and knows nothing
 * of what it reasons about; a pattern names its pruners in its CheckSpec (`pruning`), so a new one
 * adds its own without editing the checker. The growth lookahead (kv) and the holder lookahead
 * (lock, semaphore) are two such pruners.
 */
import type { KeyProblem } from '../problem.ts';
import type { Configuration } from './configuration.ts';
import type { StuckPoint } from './outcome.ts';

/** Pruner.enter's answer: go on from the configuration. */
export const KEEP = -1;
/** Pruner.enter's answer: drop the configuration, no completion exists from it. */
export const DROP = -2;

/**
 * One search's pruner. It reads the configuration it was made with (PrunerFactory), which the search
 * changes in place. It is called at every configuration the search enters that its caches did not
 * drop first, and on every entry placed and unplaced: it should not allocate per call.
 */
export interface Pruner<S> {
  /**
   * The search has just entered a configuration by placing `entry`, which left the configuration's
   * state; `before` is the state it was placed in. KEEP, DROP, or the entry of an answer that no
   * continuation can explain: the configuration is dropped and that answer noted as where it is stuck.
   * Pruners are asked in the order the spec lists them; the first that does not KEEP decides.
   */
  enter(entry: number, before: S): number;
  /** Before any search: where every order gets stuck when the pruner can tell at once (verdict illegal), else undefined. */
  illegalUpFront?(): StuckPoint<S> | undefined;
  /** Bookkeeping: `entry` was placed (place) or unplaced (unplace); `placed` shows it already. */
  place?(entry: number): void;
  unplace?(entry: number): void;
  /**
   * Does this pruner drop early the states an info op placed too soon leads to? Then the search
   * tries info ops in its first pass, with the answered ops, not after them (passes.ts says why).
   */
  readonly infoOpsEarly?: boolean;
}

/** A pruner for one search of `problem`, reading `configuration`; null when it would prune nothing there. */
export type PrunerFactory<S, I, O> = (
  problem: KeyProblem<S, I, O>,
  configuration: Configuration<S>,
) => Pruner<S> | null;

/** A pruner for any model: what the model's optional hooks enable (null without them). */
export type ModelPrunerFactory = <S, I, O>(
  problem: KeyProblem<S, I, O>,
  configuration: Configuration<S>,
) => Pruner<S> | null;

/**
 * Factories whose pruner costs more to set up, per key, than a search that never branches (the
 * holder lookahead: every answer's holder, the hold pairs; a derived model's probes on each new
 * input), each with the cheap test of whether it would prune a problem at all. A search first runs
 * without them on a small budget and sets them up only when the key branches past it (search.ts).
 */
const setUpWhenBranching = new WeakMap<object, (problem: KeyProblem<any, any, any>) => boolean>();

/** Marks `factory` as one whose pruner is set up only once a key branches; `applies`: would it prune this problem at all. */
export function whenBranching<F extends object>(
  factory: F,
  applies: (problem: KeyProblem<any, any, any>) => boolean,
): F {
  setUpWhenBranching.set(factory, applies);
  return factory;
}

/** Is `factory` marked whenBranching, and would it prune `problem`? */
export const deferredFor = (factory: object, problem: KeyProblem<any, any, any>): boolean =>
  setUpWhenBranching.get(factory)?.(problem) ?? false;
