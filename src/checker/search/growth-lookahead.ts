/**
 * The growth lookahead, a Pruner for a model whose state only grows between resets (kv: an append
 * extends the string, a put replaces it; Model.resets, canStillObserve, observes). It drops a state
 * from which an answer still to come can no longer be matched. In a file of its own: the search
 * knows it only as a Pruner.
 */
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, FAULT, REAL } from '../problem.ts';
import type { Configuration } from './configuration.ts';
import { isPlaced } from './configuration.ts';
import { DROP, KEEP, type Pruner } from './pruning.ts';

interface Lookahead {
  /** Ok operations with a completion bound whose answer reads the state (Model.observes), by completion bound. */
  readonly answers: readonly number[];
  /**
   * Per answer, the entries that may place a state not extending the one before (Model.resets),
   * called by its completion bound (so they may precede it), that leave a state it can observe.
   */
  readonly via: readonly (readonly number[])[];
}

/**
 * The earliest unplaced answers the lookahead checks at each step: the ones a wrong order or an info
 * op that never took effect runs into first. Checking fewer only prunes less; checking all made
 * each step cost as much as the key's length. Porcupine's kv c50-ok, gets only: 5,774 states with
 * 8, 16 or 32 (12,046 when every answer took a place in a window of 32).
 */
const LOOKAHEAD_ANSWERS = 16;

/** Null in relaxed mode, without the model's hooks, or when expiries or rollbacks could change the state otherwise. */
export function growthLookahead<S, I, O>(
  problem: KeyProblem<S, I, O>,
  configuration: Configuration<S>,
): Pruner<S> | null {
  if (configuration.relaxed) return null;
  const entries = lookaheadEntries(problem);
  return entries === null ? null : new GrowthLookahead(problem, configuration, entries);
}

function lookaheadEntries<S, I, O>(problem: KeyProblem<S, I, O>): Lookahead | null {
  const { model, n, kind, ref, ops, callAt, returnAt } = problem;
  if (model.resets === undefined || model.canStillObserve === undefined) return null;
  const resets: number[] = [];
  const answers: number[] = [];
  for (let e = 0; e < n; e++) {
    if (kind[e] === EXPIRE || kind[e] === FAULT) return null;
    if (model.resets(ops[ref[e]].input)) resets.push(e);
    const op = ops[ref[e]];
    if (kind[e] === REAL && returnAt[e] !== Infinity && op.outcome === 'ok' && (model.observes?.(op.input) ?? true))
      answers.push(e);
  }
  answers.sort((a, b) => returnAt[a] - returnAt[b]);
  // A reset leaves the same state whatever the state before (Model.resets), so from init will do.
  const left = resets.map((reset) => model.step(model.init(), ops[ref[reset]].input, ops[ref[reset]].id).state);
  const via = answers.map((answer) => {
    const op = ops[ref[answer]];
    return resets.filter(
      (reset, r) => callAt[reset] <= returnAt[answer] && model.canStillObserve!(left[r], op.input, op.output),
    );
  });
  return { answers, via };
}

class GrowthLookahead<S, I, O> implements Pruner<S> {
  /** States an info op placed too soon leads to fail here early, so info ops join the first pass. */
  readonly infoOpsEarly = true;
  private readonly placed: Uint16Array;
  /** Where the last check started: the earliest unplaced answer, or near it. */
  private from = 0;

  constructor(
    private readonly problem: KeyProblem<S, I, O>,
    private readonly configuration: Configuration<S>,
    private readonly entries: Lookahead,
  ) {
    this.placed = configuration.placed;
  }

  enter(_entry: number, before: S): number {
    // An entry that leaves the very state object it found (a read) leaves the state of the
    // configuration before it, which passed the lookahead (or skipped it for the same reason):
    // checking again could only catch an answer that has just entered the window, and skipping
    // only prunes less.
    if (this.configuration.state === before) return KEEP;
    return this.answersStillPossible() ? KEEP : DROP;
  }

  /**
   * The model's lookahead (Model.canStillObserve): each of the earliest answers still to come must be
   * observable from here, directly (only extending entries placed before it) or after a reset still
   * to come that may precede it (called by its completion bound) and leaves a state it can observe.
   * A state that fails this has no completion, so dropping it loses nothing. Without it, a kv key
   * with a dozen overlapping appends between two gets tried every order of them, each its own state
   * (1.8 million states on one key of a synthetic history), and an info append that never took
   * effect was tried at every point before the get that shows it missing.
   */
  private answersStillPossible(): boolean {
    const { answers, via } = this.entries;
    const { model, ops, ref } = this.problem;
    const { placed } = this;
    const state = this.configuration.state;
    // Start at the earliest unplaced answer, or near it: skipping one only prunes less.
    let a = this.from;
    while (a > 0 && !isPlaced(placed, answers[a - 1])) a--;
    while (a < answers.length && isPlaced(placed, answers[a])) a++;
    this.from = a;
    for (let checked = 0; a < answers.length && checked < LOOKAHEAD_ANSWERS; a++) {
      const e = answers[a];
      if (isPlaced(placed, e)) continue;
      checked++;
      const op = ops[ref[e]];
      if (model.canStillObserve!(state, op.input, op.output)) continue;
      const resets = via[a];
      let viaReset = false;
      for (let r = 0; r < resets.length && !viaReset; r++) viaReset = !isPlaced(placed, resets[r]);
      if (!viaReset) return false;
    }
    return true;
  }
}
