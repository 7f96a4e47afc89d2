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
   * The model's exact answers a parsed answer may stand for (a boolean `true` is the script's 1;
   * a lock release's `false` is nil or -1); undefined when the level does not say. The model's
   * lookahead hooks read exact answers: they are asked of each of these, and an answer standing
   * for none the level names reads as one they know nothing of.
   */
  exactAnswers?(parsed: unknown): readonly unknown[] | undefined;
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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

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
export const levelNames = (levels: LevelTable, op: string): string[] => [
  EXACT,
  ...(Object.hasOwn(levels, op) ? levels[op].map((l) => l.name) : []),
];

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
    const answer =
      output.level === EXACT
        ? model.describeOutput(output.answer as O)
        : output.answer === undefined
          ? 'nothing'
          : JSON.stringify(output.answer);
    return `${answer} (${output.op} at level ${output.level}${handle})`;
  };
  // canStillObserve/resets are left out: a lookahead written for raw answers would misread an envelope.
  const { canStillObserve: _c, resets: _r, ...rest } = model;
  return { ...rest, outputMatches: matches, describeOutput: describe, ...holderHooks(model, levels) };
}

/**
 * The model's holder lookahead (requires, grants, requiresVacant, excludes, answerLeaves) reads
 * exact answers. Handed an envelope as it is, it read nothing from a coarse answer (so a key of
 * boolean polls lost its pruning and the search tried every order again) and, worse, took an exact answer that
 * came with a handle for one that granted nothing, pruning the only order that explained the key (a
 * false alarm). Each hook is now asked of every exact answer the envelope may stand for and says
 * what they all say; where they differ, or the level names none, it says the least it may: no
 * holder required, excluded or left, no vacancy, and any grant an unknown answer may make.
 */
function holderHooks<S, I, O>(model: Model<S, I, O>, levels: LevelTable): Partial<Model<S, I, O>> {
  const exactAnswers = (observed: unknown): readonly unknown[] | undefined => {
    if (!isLeveledAnswer(observed)) return [observed];
    if (observed.level === EXACT) return [observed.answer];
    const level = levelOf(levels, observed.op, observed.level);
    const parsed = level?.parse(observed.answer);
    const answers = parsed?.ok ? level!.exactAnswers?.(parsed.value) : undefined;
    return answers?.length ? answers : undefined;
  };
  /** What `read` says of every answer, when they agree; else `otherwise`. */
  const agreed = <T>(observed: unknown, read: (exact: unknown) => T, otherwise: T): T => {
    // A raw answer stands for itself: asked directly, without a list made for it on every ask.
    if (!isLeveledAnswer(observed)) return read(observed);
    const answers = exactAnswers(observed);
    if (answers === undefined) return otherwise;
    const first = read(answers[0]);
    return answers.every((a) => read(a) === first) ? first : otherwise;
  };
  const hooks: Partial<Model<S, I, O>> = {};
  const { requires, grants, requiresVacant, excludes, answerLeaves } = model;
  if (requires) hooks.requires = (input, output) => agreed(output, (exact) => requires(input, exact), undefined);
  // The search asks with undefined for an answer never seen, which may have granted: so does a disagreement.
  if (grants)
    hooks.grants = (input, output) => agreed(output, (exact) => grants(input, exact), grants(input, undefined));
  if (requiresVacant)
    hooks.requiresVacant = (input, output) => agreed(output, (exact) => requiresVacant(input, exact), false);
  if (excludes) hooks.excludes = (input, output) => agreed(output, (exact) => excludes(input, exact), undefined);
  // A state is an object: only an answer standing for one exact answer says which state it leaves.
  if (answerLeaves)
    hooks.answerLeaves = (input, output, id) => {
      const answers = isLeveledAnswer(output) ? exactAnswers(output) : [output];
      return answers?.length === 1 ? answerLeaves(input, answers[0], id) : undefined;
    };
  return hooks;
}

// ---- levels patterns share ------------------------------------------------------------------

/**
 * `true` for the exact answer that means success (`1`), `false` for every other; the implementation
 * answers a boolean. `otherwise`: the model's exact answers `false` stands for, when the pattern
 * lists them (for the lookahead, Level.exactAnswers).
 */
export function booleanLevel(
  success: number,
  answer: string,
  witnesses: readonly string[],
  otherwise?: readonly unknown[],
): Level {
  return {
    name: 'boolean',
    answer,
    project: (exact) => exact === success,
    exactAnswers: (parsed) => (parsed === true ? [success] : otherwise),
    parse: (observed) =>
      typeof observed === 'boolean'
        ? { ok: true, value: observed }
        : { ok: false, problem: `expected true or false, got ${JSON.stringify(observed) ?? String(observed)}` },
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

/** The integer reply every pattern's scripts answer for done. */
export const DONE = 1;
