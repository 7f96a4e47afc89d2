/**
 * Answer levels: how much of the model's exact answer an implementation gives back. Real libraries
 * answer less than the reference scripts (a boolean where the script says nil / -1 / 1, nothing at
 * all where it says 1 or 0), and an honest adapter should not have to report such an answer as
 * indeterminate. A level is a projection of the model's exact answer plus a validator of the
 * implementation's coarse one. The model still steps with exact semantics, so the search is the
 * same; only the comparison of one answer is made at the level it was given.
 *
 * An answer given at a coarse level is recorded in the history as an envelope naming its operation
 * and level (`{ level, op, answer }`), so that the history says by itself how to judge it: the
 * counterexample file, `replay` and `chaoslua check` need no side information. An answer at the
 * exact level is recorded raw, as it always was.
 */
import type { Model } from '../model/types.ts';

/** The level every operation has: the reference scripts' replies, judged as they always were. */
export const EXACT = 'exact';

/** A validated coarse answer, or why the implementation's answer is not one of the level's. */
export type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

export interface Level {
  /** Its name in capabilities (`boolean`, `void`, `outcome`); never `exact`. */
  readonly name: string;
  /** The answers of this level, in words (docs, errors). */
  readonly answer: string;
  /** The model's exact answer as this level gives it (total: an answer of another operation projects to something no answer matches). */
  project(exact: unknown): unknown;
  /** The implementation's answer, validated into the level's form. */
  parse(observed: unknown): Parsed;
  /** Does the parsed answer equal the projected one? Default: JSON equality. */
  equal?(projected: unknown, parsed: unknown): boolean;
  /**
   * The invariants an answer at this level can still witness (a subset of what the operation
   * witnesses exactly). `void` witnesses none: every answer is accepted, though the operation's
   * effect is still checked through the answers of the others.
   */
  readonly witnesses: readonly string[];
}

/** Coarse levels by operation; an operation not listed has only the exact level. */
export type LevelTable = Readonly<Record<string, readonly Level[]>>;

/** An answer given at a coarse level (or carrying a holder handle), as the history records it. */
export interface LeveledAnswer {
  readonly level: string;
  readonly op: string;
  readonly answer: unknown;
  /** An opaque holder handle the answer came with (its text only: the harness never reads it). */
  readonly handle?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Is `observed` an envelope? Exactly its fields: a raw reply is never taken for one. */
export function isLeveledAnswer(observed: unknown): observed is LeveledAnswer {
  if (!isRecord(observed) || typeof observed.level !== 'string' || typeof observed.op !== 'string') return false;
  if (observed.handle !== undefined && typeof observed.handle !== 'string') return false;
  return Object.keys(observed).every((k) => k === 'level' || k === 'op' || k === 'answer' || k === 'handle');
}

/** The level of that name of an operation (undefined for exact or an unknown one). */
export function levelOf(levels: LevelTable, op: string, name: string): Level | undefined {
  return Object.hasOwn(levels, op) ? levels[op].find((l) => l.name === name) : undefined;
}

/** The level names an operation may be declared at: exact first. */
export const levelNames = (levels: LevelTable, op: string): string[] => [EXACT, ...(Object.hasOwn(levels, op) ? levels[op].map((l) => l.name) : [])];

const jsonEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The model, judging answers at the level they were given. A raw answer goes to the model's own
 * comparison unchanged (an implementation declaring nothing is judged exactly as before); an
 * envelope is compared through its operation's level, or the model's own comparison for `exact`
 * (an exact answer that came with a holder handle). An envelope naming a level its operation does
 * not have matches nothing.
 */
export function withLevels<S, I, O>(model: Model<S, I, O>, levels: LevelTable): Model<S, I, O> {
  const matches = (expected: O, observed: unknown): boolean => {
    if (!isLeveledAnswer(observed)) return model.outputMatches(expected, observed);
    if (observed.level === EXACT) return model.outputMatches(expected, observed.answer);
    const level = levelOf(levels, observed.op, observed.level);
    if (!level) return false;
    const parsed = level.parse(observed.answer);
    return parsed.ok && (level.equal ?? jsonEqual)(level.project(expected), parsed.value);
  };
  const describe = (output: O): string => {
    if (!isLeveledAnswer(output)) return model.describeOutput(output);
    const handle = output.handle === undefined ? '' : `, handle ${output.handle}`;
    const answer = output.level === EXACT ? model.describeOutput(output.answer as O) : output.answer === undefined ? 'nothing' : JSON.stringify(output.answer);
    return `${answer} (${output.op} at level ${output.level}${handle})`;
  };
  // canStillObserve/resets are left out: a lookahead written for raw answers would misread an envelope.
  const { canStillObserve: _c, resets: _r, ...rest } = model;
  return { ...rest, outputMatches: matches, describeOutput: describe };
}

// ---- levels patterns share ------------------------------------------------------------------

/** `true` for the exact answers that mean success (`1`), `false` for every other; the implementation answers a boolean. */
export function booleanLevel(success: (exact: unknown) => boolean, answer: string, witnesses: readonly string[]): Level {
  return {
    name: 'boolean',
    answer,
    project: (exact) => success(exact),
    parse: (observed) => (typeof observed === 'boolean' ? { ok: true, value: observed } : { ok: false, problem: `expected true or false, got ${JSON.stringify(observed) ?? String(observed)}` }),
    witnesses,
  };
}

/** The implementation's answer says nothing (a library that discards the script's reply): every answer is accepted. */
export const voidLevel: Level = {
  name: 'void',
  answer: 'anything (the answer is not looked at)',
  project: () => null,
  parse: () => ({ ok: true, value: null }),
  witnesses: [],
};

/** Is the exact answer the integer reply 1 (what every pattern's scripts answer for done)? */
export const isOne = (exact: unknown) => exact === 1;
