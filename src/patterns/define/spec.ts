/**
 * A pattern as a team writes it (`definePattern`, exported as `chaoslua/pattern`): its operations
 * and how to draw their arguments, and a model of a few pure functions, as Porcupine's model is.
 * Everything else a built-in pattern declares (sessions, races, answer levels, variants, duplicate
 * declarations, search hints) is an opt-in group beside the core, with a default derived from it.
 *
 * Versioned: a spec names `apiVersion`, and a harness refuses a version it does not know in one line.
 */
import type fc from 'fast-check';
import type { SessionContext } from '../../generator/sessions/common.ts';
import type { SessionSetting } from '../../generator/settings.ts';
import type { ArgType } from '../types.ts';
import type { OptInGroups } from './groups.ts';

/** The one version of this interface so far. */
export const PATTERN_API_VERSION = 1;

/** What an argument's draw sees: the session drawing it and the holder name of its attempt. */
export interface DrawContext {
  /** This session's holder name (`c<client>a<attempt>`): what `arg.holder()` draws most of the time. */
  readonly own: string;
  readonly session: SessionContext;
}

/** How one argument of an operation is drawn (`arg.*`), and its type as histories check it. */
export interface ArgSpec<T = unknown> {
  /** `holder`, `lease`, `integer`, `oneOf` or `custom`, as the `arg` helper that made it. */
  readonly kind: 'holder' | 'lease' | 'integer' | 'oneOf' | 'custom';
  readonly type: ArgType;
  /** The largest value it draws (a lease's bound comes from here); undefined: unbounded or not a number. */
  readonly max?: number;
  draw(ctx: DrawContext): fc.Arbitrary<T>;
}

/**
 * How long what an operation sets lasts (a lease, a TTL, a window), when the length is not one of
 * its arguments: the length for an input (a range when only its bounds are known, as a GCRA
 * place's), and the longest it can be, which the harness times its stalls and races by. Where one
 * length is read (the coverage replay, a stuck point's holder), a range's is its shortest; the
 * default sessions stall past its longest.
 */
export interface LeaseRule<I> {
  ms(input: I): number | readonly [number, number] | undefined;
  readonly maxMs: number;
}

export interface OperationSpec<I = any> {
  /** The operation's arguments, in the order a module store's method and a script's ARGV take them. */
  readonly args: Readonly<Record<string, ArgSpec>>;
  /**
   * What this operation sets expires: the name of the argument holding its length in ms, or a rule.
   * The checker then lets what it set run out anywhere in the window the history allows.
   */
  readonly lease?: string | LeaseRule<I>;
  /** The answer in words (docs, errors, the process protocol's hello). Default: "see the model". */
  readonly answer?: string;
  /** The Lua script a `lua:DIR` implementation holds for it (DIR/<script>.lua). Default: the operation's name. */
  readonly script?: string;
  /** The method of a `module:` store. Default: the operation's name. */
  readonly method?: string;
  /** How often the default sessions draw it, relative to the others. Default 1. */
  readonly weight?: number;
}

/** What a step leaves and answers. */
export interface StepResult<S, O> {
  readonly state: S;
  readonly output: O;
}

/**
 * The model: the specification of one key's state machine, as pure functions. A Redis Lua script
 * runs atomically and decides from the key's contents and its arguments alone, so a step is a
 * function; what is not determined (when a lease runs out, whether an unanswered call took effect)
 * the checker explores for the model.
 */
export interface ModelSpec<S, I, O> {
  /** The state of a key nobody has touched. */
  init(): S;
  /**
   * Apply `input` as operation `id`: the state it leaves and the answer the scripts give. An
   * operation that sets a lease stores `id` in the state as that lease's tag.
   */
  step(state: S, input: I, id: number): StepResult<S, O>;
  /** The tags of the leases live in a state (ids of the operations that set them). Needed with leases. */
  leases?(state: S): readonly number[];
  /**
   * The one lease a reader of a single lease follows (the coverage replay, a stuck point's holder)
   * when a state holds several: a queue's first place, say. Default: the oldest, the smallest tag
   * of `leases`.
   */
  firstLease?(state: S): number | null;
  /** The state once the lease tagged `tag` ran out. Needed with leases. */
  expire?(state: S, tag: number): S;
  /**
   * Is `observed` (a Redis reply, as a client hands it over) the answer `expected`? Default: equal
   * up to a reply's representation (1 and "1", nil and undefined, a Buffer and its text).
   */
  matches?(expected: O, observed: unknown): boolean;
  /** The state's name in coverage tables (`pending`, `held`). Default: its `kind` field, else its description. */
  kind?(state: S): string;
  /** The state in words for a counterexample. Default: JSON. */
  describe?(state: S): string;
  /** An input in words: `acquire(token="c0a1", ttl=250ms)`. Default: the operation and its arguments as JSON. */
  describeInput?(input: I): string;
  /** An answer in words. Default: nil, a number, or JSON. */
  describeOutput?(output: O): string;
  /** A canonical string: equal states give equal strings. Default: JSON. */
  hash?(state: S): string;
}

/** Where the checker got stuck, as an invariant's `broken` sees it. */
export interface Stuck<S, I> {
  readonly key: string;
  /** The state after the longest explainable order of the key's operations. */
  readonly state: S;
  /** The operation no order could explain. */
  readonly input: I;
  readonly observed: unknown;
  readonly expected: unknown;
  /** The operation in words: "client 2's claim(worker=\"c2a0\") at 1.204 s". */
  readonly phrase: string;
}

/** A named invariant: the operations whose answers witness it, and when a stuck point breaks it. */
export interface InvariantSpec<S, I> {
  readonly witnesses: readonly string[];
  /** A sentence when `stuck` breaks this invariant (it is then named); undefined when it does not. Not needed with the `classify` group. */
  broken?(stuck: Stuck<S, I>): string | undefined;
}

/** A pattern as a team declares it: the core, and the opt-in groups. */
export interface PatternSpec<S = any, I = any, O = any> extends OptInGroups<I> {
  readonly apiVersion: typeof PATTERN_API_VERSION;
  /** Names the pattern on the command line, in histories and certificates: [a-z][a-z0-9-]*. */
  readonly name: string;
  /** What the pattern is, in one line (help, reports). */
  readonly description?: string;
  readonly operations: Readonly<Record<string, OperationSpec<I>>>;
  readonly model: ModelSpec<S, I, O>;
  /** Named invariants, in the order reports list them; model-conformance is always checked after them. */
  readonly invariants?: Readonly<Record<string, InvariantSpec<S, I>>>;
  /** The Redis key of a logical key: one hash tag around all of it. Default: `<name>:{<namespace>:<key>}`. */
  key?(namespace: string, logicalKey: string): string;
  /**
   * The folder of the reference scripts, relative to the pattern file (what `chaoslua run` chaos-tests,
   * and `certify --impl lua:DIR` compares with). Default `lua`, when the file has one beside it.
   */
  readonly scripts?: string;
  /** Numbers a job may set for the sessions (`--set NAME=VALUE`), beside the lease settings leases bring. */
  readonly settings?: Readonly<Record<string, SessionSetting>>;
}
