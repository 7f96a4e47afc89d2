/**
 * Which entries of a key's problem the holder lookahead reasons about (a lock's tokens, a
 * semaphore's holders): the answers that require a holder, the entries that may make one current
 * or end its hold. Read once per search by the holder lookahead and its hold pairs, from the
 * model's optional hooks (Model.requires, grants, holdsIdentity; holderOf, requiresVacant, mayEnd).
 */
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, GHOST, REAL } from '../problem.ts';
import { isPlaced } from './configuration.ts';

export interface Holders {
  /** Ok operations whose answer requires a holder (Model.requires). */
  readonly answers: readonly number[];
  /** Per answer, the index of the holder it requires in `identities`. */
  readonly needs: readonly number[];
  /** Per entry, the index of the holder it may make current (Model.grants), or -1. */
  readonly grants: Int32Array;
  /** Per holder, the entries not yet placed that may make it current. */
  readonly grantersLeft: Int32Array;
  /** Per holder, the entries that may make it current, by call. */
  readonly granters: readonly (readonly number[])[];
  readonly identities: readonly string[];
  /** Null when the model does not say which holder a state has and what may end a hold. */
  readonly leaving: Leaving | null;
}

export interface Leaving {
  /** Ok operations whose answer requires no holder (Model.requiresVacant), by completion bound. */
  readonly vacant: readonly number[];
  /** Holder -> the op and second-execution entries that may end its hold (Model.mayEnd), by call. */
  readonly enders: ReadonlyMap<string, readonly number[]>;
  /** Lease tag -> its expiry entries (the operation's, and its second execution's). */
  readonly expiriesOfTag: ReadonlyMap<number, readonly number[]>;
}

/** Null when the model has no holder lookahead or no answer requires a holder. */
export function holderEntries<S, I, O>(problem: KeyProblem<S, I, O>): Holders | null {
  const { model, n, kind, ref, ops, returnAt } = problem;
  if (model.requires === undefined || model.grants === undefined || model.holdsIdentity === undefined) return null;
  const index = new Map<string, number>();
  const identity = (name: string): number => {
    let at = index.get(name);
    if (at === undefined) index.set(name, (at = index.size));
    return at;
  };
  const answers: number[] = [];
  const needs: number[] = [];
  const grants = new Int32Array(n).fill(-1);
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL && kind[e] !== GHOST) continue;
    const op = ops[ref[e]];
    const answered = kind[e] === REAL && returnAt[e] !== Infinity && op.outcome === 'ok';
    // A second execution's answer was never seen, nor an indeterminate op's.
    const granted = model.grants(op.input, answered ? op.output : undefined);
    if (granted !== undefined) grants[e] = identity(granted);
    const required = answered ? model.requires(op.input, op.output) : undefined;
    if (required !== undefined) {
      answers.push(e);
      needs.push(identity(required));
    }
  }
  const leaving = leavingEntries(problem);
  if (answers.length === 0 && (leaving === null || leaving.vacant.length === 0)) return null;
  const grantersLeft = new Int32Array(index.size);
  const granters: number[][] = Array.from({ length: index.size }, () => []);
  for (let e = 0; e < n; e++) {
    if (grants[e] === -1) continue;
    grantersLeft[grants[e]]++;
    granters[grants[e]].push(e);
  }
  for (const list of granters) list.sort((a, b) => problem.callAt[a] - problem.callAt[b]);
  return { answers, needs, grants, grantersLeft, granters, identities: [...index.keys()], leaving };
}

function leavingEntries<S, I, O>(problem: KeyProblem<S, I, O>): Leaving | null {
  const { model, n, kind, ref, ops, tag, callAt, returnAt } = problem;
  if (model.holderOf === undefined || model.requiresVacant === undefined || model.mayEnd === undefined) return null;
  const vacant: number[] = [];
  const enders = new Map<string, number[]>();
  const expiriesOfTag = new Map<number, number[]>();
  for (let e = 0; e < n; e++) {
    if (kind[e] === EXPIRE) {
      const list = expiriesOfTag.get(tag[e]);
      if (list === undefined) expiriesOfTag.set(tag[e], [e]);
      else list.push(e);
      continue;
    }
    if (kind[e] !== REAL && kind[e] !== GHOST) continue;
    const op = ops[ref[e]];
    if (
      kind[e] === REAL &&
      returnAt[e] !== Infinity &&
      op.outcome === 'ok' &&
      model.requiresVacant(op.input, op.output)
    )
      vacant.push(e);
    const ends = model.mayEnd(op.input);
    if (ends === undefined) continue;
    const list = enders.get(ends);
    if (list === undefined) enders.set(ends, [e]);
    else list.push(e);
  }
  vacant.sort((a, b) => returnAt[a] - returnAt[b]);
  for (const list of enders.values()) list.sort((a, b) => callAt[a] - callAt[b]);
  return { vacant, enders, expiriesOfTag };
}

/**
 * Is an entry that may make this holder current still to place, and called by `by`? One called
 * later cannot precede the answer whose completion bound `by` is: counting it let a holder's lease
 * run out before its release answered 1 while a later acquire of the same token was left, and
 * the polls after it were tried in every order before the release failed (lossy seed 3697).
 */
export function granterBy(
  holders: Holders,
  holder: number,
  by: number,
  callAt: Float64Array,
  placed: Uint16Array,
): boolean {
  if (holders.grantersLeft[holder] === 0) return false;
  for (const g of holders.granters[holder]) {
    if (callAt[g] > by) return false;
    if (!isPlaced(placed, g)) return true;
  }
  return false;
}
