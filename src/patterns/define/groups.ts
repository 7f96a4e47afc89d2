/**
 * The opt-in groups of a pattern spec: what a built-in pattern declares beyond the core, each with a
 * default derived from the core when absent. A team adds one when the default is not enough: its
 * own sessions or races, the coarse answers real libraries give, the search's lookahead for a model
 * whose answers name a holder.
 */
import type fc from 'fast-check';
import type { RaceSource, SessionContext } from '../../generator/sessions/common.ts';
import type { Model } from '../../model/types.ts';
import type { ClientStep } from '../../plan/schedule.ts';
import type { Classifier } from '../../checker/invariants/types.ts';
import type { LevelTable } from '../levels.ts';
import type {
  DuplicateDeclaration,
  GiveBack,
  HolderIdentity,
  Pattern,
  RequiredTransition,
  SemanticVariant,
} from '../types.ts';

/** One client's session under attempt number `attempt` (its holder name `c<client>a<attempt>`). */
export type SessionDraw<I> = (ctx: SessionContext, attempt: number) => fc.Arbitrary<ClientStep<I>[]>;

/**
 * The search's lookahead for a model whose answers name a holder or whose state only grows (the
 * members of the same names in docs/patterns.md): each lets the checker drop orders no answer still
 * to come can fit, which decides histories a plain search gives up on. Never needed for a verdict's
 * correctness, only for its cost.
 */
export type SearchHints<S, I> = Partial<
  Pick<
    Model<S, I, unknown>,
    | 'resets'
    | 'canStillObserve'
    | 'observes'
    | 'requires'
    | 'grants'
    | 'holdsIdentity'
    | 'holderOf'
    | 'requiresVacant'
    | 'mayEnd'
    | 'answerLeaves'
    | 'excludes'
  >
>;

/** The coverage table's rows and the ones a certificate needs witnessed. */
export interface CoverageGroup {
  /** Rows every coverage table shows, exercised or not: "absent → held by acquire". */
  readonly transitions: readonly string[];
  /** Those a certificate needs witnessed, with the operations and faults that reach them. */
  readonly required?: readonly RequiredTransition[];
}

/**
 * The reference client, when one script call per operation is not how the pattern's reference
 * behaves (a client with its own metrics, variants of it): what `lua:DIR` runs under.
 */
export interface ReferenceGroup {
  readonly open: Pattern<any, any, any>['openReference'];
  /** Its variants (`createReferenceSubject`'s `variant`), the first the default. */
  readonly variants?: readonly string[];
  /**
   * Scripts a `lua:DIR` holds beyond the operations' own (DIR/<name>.lua), when the client calls
   * others (a variant's script: the limiter's INCR-first). Default: none.
   */
  readonly scripts?: readonly string[];
}

export interface OptInGroups<I> {
  /** The sessions' shape. Default: each session a handful of the operations on one key, drawn by weight, with think times and, where leases are, stalls past them. */
  readonly session?: SessionDraw<I>;
  /** The critical instants. Default: for each operation with a lease, a contender asking just after it runs out while the holder acts. */
  readonly races?: readonly RaceSource<I>[];
  /** Coarse answers real libraries give, by operation. Default: exact answers only. */
  readonly levels?: LevelTable;
  /** Points where an implementation may choose what it promises. Default: one semantics. */
  readonly variants?: Readonly<Record<string, SemanticVariant>>;
  /** What a second execution of an operation means to a user. Default: counted, no finding. */
  readonly duplicates?: Readonly<Record<string, DuplicateDeclaration>>;
  /** Holders named by implementation-made handles. Default: none. */
  readonly holder?: HolderIdentity;
  /** Operations a library may undo inside the same call. Default: none. */
  readonly givesBack?: Readonly<Record<string, GiveBack>>;
  /** The coverage table's rows. Default: the transitions a run met, and none required. */
  readonly coverage?: CoverageGroup;
  /** The search's lookahead. Default: the holder lookahead derived from the model when an operation names a holder (./holder-hints.ts), else none; `{}`: none. */
  readonly search?: SearchHints<any, I>;
  /** Answers a server clock moved back could give on its own, changing nothing. Default: none. */
  clockRefusal?(input: I, output: unknown): boolean;
  /** The reference client. Default: one script call per operation, KEYS[1] the key, ARGV the arguments in order. */
  readonly reference?: ReferenceGroup;
  /** The pattern's client across independent masters (`--topology masters`). Default: none, and that topology refuses the pattern. */
  readonly masters?: Pattern<any, any, any>['openOnMasters'];
  /**
   * One function naming the invariant any stuck point breaks, in place of each invariant's `broken`
   * (it sees the whole stuck context: the lease holder and when its lease could end). Default: the
   * invariants' own `broken`, in their order.
   */
  readonly classify?: Classifier<any, I, any>;
  /**
   * The invariants whose name wins when the search was stuck in several states, first to last: those a
   * stuck point can break (an invariant the post-run TTL probe names, `noTtl`, is none of them).
   * Default: every invariant, in their order.
   */
  readonly classifyPriority?: readonly string[];
  /** What a key left with no TTL breaks, and what it then does. Default: model-conformance, "holds its state forever". */
  readonly noTtl?: { readonly invariant: string; readonly consequence: string };
}
