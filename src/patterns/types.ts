/**
 * A pattern is one folder under src/patterns: everything chaoslua knows about one Redis Lua state
 * machine (its operations, model, sessions, invariants, transitions, reference client, key layout
 * and probes) gathered in one `Pattern` object. The stages (generator, runner, checker, report,
 * certify, the process protocol, the CLI) read the registry (./index.ts) and never switch on a
 * pattern's name, so a new pattern is a new folder and one registry line.
 */
import type fc from 'fast-check';
import type { Cluster as IORedisCluster, Redis } from 'ioredis';
import type { Classifier } from '../checker/invariants/types.ts';
import type { FaultName } from '../faults/index.ts';
import type { RaceSource, SessionContext } from '../generator/sessions/common.ts';
import type { SessionSetting } from '../generator/settings.ts';
import type { Model } from '../model/types.ts';
import type { ClientStep } from '../plan/schedule.ts';
import type { ReferenceSubject } from '../subject/adapter.ts';
import type { ScriptMode } from '../scripts/runner.ts';
import type { LevelTable } from './levels.ts';

/** The type of one argument of an operation, as counterexample files are checked against it. */
export type ArgType = 'string' | 'integer>=0' | 'integer>=1';

export interface Operation {
  /**
   * The model input's fields besides `op`, in the order a module store's method takes them after
   * the key (the process protocol sends them by name, unchanged).
   */
  readonly args: Readonly<Record<string, ArgType>>;
  /** The module store's method for this operation (docs/module-contract.md). */
  readonly method: string;
  /** What the reference scripts answer, exactly (the model's output type, in words). */
  readonly answer: string;
}

/**
 * What a second execution of one operation means to a user of the pattern. A resend after a cut
 * connection may run an operation twice; the checker counts those only a second execution explains
 * (duplicate effects). A pattern says which of them a user must hear about.
 */
export interface DuplicateDeclaration {
  /** The finding's name when a duplicate of this operation is one (`duplicate-hit`); absent: counted, no finding. */
  readonly finding?: string;
  /** What the duplicate did, as a user of the implementation would see it. */
  readonly consequence: string;
  /** True: the finding withholds the certificate. Absent: reported in the certificate and summary, certified. */
  readonly violation?: true;
}

/** A number a job may set for the pattern's sessions (`--set NAME=VALUE`; src/generator/settings.ts). */
export type PatternSetting = SessionSetting;

/** A transition a certificate needs witnessed, with the faults the generator needs to reach it. */
export interface RequiredTransition {
  readonly transition: string;
  /** None listed: any schedule reaches it. */
  readonly needsAnyOf?: readonly FaultName[];
  /** The operations a schedule needs to reach it: an implementation lacking one is not asked for it. */
  readonly needs?: readonly string[];
}

/** How a holder is named, for implementations that hand out their own holder handles. */
export interface HolderIdentity {
  /** The argument naming the holder (`token`): later calls with the same value on the same key receive its handle. */
  readonly arg: string;
  /** The operations whose answer may come with a handle (`acquire`). */
  readonly handedOutBy: readonly string[];
}

/**
 * A semantic variant: a point where the pattern lets an implementation choose what it promises,
 * because real libraries differ there by design (a semaphore's holder acquiring again is renewed by
 * some, counted against the limit by others). The implementation declares its choice next to its
 * answer levels; every input of the operations that carry the variant records a choice other than
 * the default as a field named after the variant (`reacquire: 'counts'`), so the model steps by the
 * promise made and the history says by itself how it was judged. The default (first choice) is
 * what the reference scripts do, and is never recorded: histories without the field read as before.
 */
export interface SemanticVariant {
  /** The choices, the default (the reference scripts' semantics) first. */
  readonly choices: readonly string[];
  /** The operations whose input carries the choice (the model reads it from there). */
  readonly carriedBy: readonly string[];
  /** Each choice in words (docs, errors, summaries). */
  readonly meaning: Readonly<Record<string, string>>;
}

/** What the reference client over a scripts directory takes (`createReferenceSubject`'s options, checked). */
export interface ReferenceOpenOptions {
  readonly scriptsDir: string;
  readonly mode: ScriptMode;
  readonly namespace: string;
  readonly quitOnClose: boolean;
  /** One of the pattern's `referenceVariants`, when it has some. */
  readonly variant?: string;
}

/** What an operation that gives back inside its call also did: this operation, with these fields of its input. */
export interface GiveBack {
  readonly op: string;
  readonly args: readonly string[];
}

export interface Pattern<S, I, O, R extends ReferenceSubject<I, O> = ReferenceSubject<I, O>> {
  /** The registry key, the CLI's --pattern, the folder under lua/ and src/patterns/. */
  readonly name: string;
  /** What it is, in one line (a pattern a team declared: its spec's description). */
  readonly description?: string;
  /** The file a pattern a team declared was loaded from, and its digest: what a certificate names. */
  readonly source?: { readonly file: string; readonly sha256: string };
  /** A team's pattern: the folder of its reference scripts (absolute), what `run` certifies; a built-in's are under lua/. */
  readonly referenceDir?: string;
  /** By the name a model input carries in `op`, in the order reports list them. */
  readonly operations: Readonly<Record<string, Operation>>;
  /** The specification (its `name` is the pattern's), judging answers at the level they were given (withLevels). */
  readonly model: Model<S, I, O>;
  /** What a job may set for the sessions (`--set NAME=VALUE`), by name; the sessions read every one,
   *  filled with its default, in `ctx.options.settings`. Absent: nothing to set. */
  readonly settings?: Readonly<Record<string, PatternSetting>>;
  /** One client's session under attempt number `attempt` (owner/token c<client>a<attempt>). */
  session(ctx: SessionContext, attempt: number): fc.Arbitrary<ClientStep<I>[]>;
  /**
   * The pattern's critical instants (src/generator/races.ts): for each operation that reads before
   * it writes, the instant its read can go stale at (a lease running out, another client taking the
   * last place) and how to put a contender just after it. The generator stages one in most runs,
   * with a hold aimed at the racing operation. Absent: the pattern's runs stage none.
   */
  readonly races?: readonly RaceSource<I>[];
  /** The named invariants certified, in the order reports list them; model-conformance last. */
  readonly invariants: readonly string[];
  /** The operations whose answers witness each invariant (a violation of it is pinned on one of their
   *  answers); an invariant not listed (model-conformance) is witnessed by every operation. */
  readonly witnesses: Readonly<Record<string, readonly string[]>>;
  /** Coarse answer levels by operation (./levels.ts), from what real libraries return; exact is implicit. */
  readonly levels: LevelTable;
  /** Semantic variants an implementation may declare, by name (the input field carrying a choice); none: one semantics. */
  readonly variants?: Readonly<Record<string, SemanticVariant>>;
  /** Present when holders may carry implementation-made handles (capabilities `handle: true`). */
  readonly holder?: HolderIdentity;
  /**
   * Operations a library may undo inside the same call, by name: what the call then also did, after
   * it (`{ acquire: { op: 'release', args: ['token'] } }`: Redlock's validity rule takes the lock and,
   * when taking it took longer than its validity, deletes its own value before answering false). An
   * implementation declares `givesBack: true` for such an operation and answers `{ answer, gaveBack:
   * true }`; the history then records the operation and the undoing one, both indeterminate.
   */
  readonly givesBack?: Readonly<Record<string, GiveBack>>;
  /** Names the invariant a stuck point breaks (undefined: model-conformance). */
  readonly classify: Classifier<S, I, O>;
  /** When the search was stuck in several states, the first of these named wins. */
  readonly classifyPriority: readonly string[];
  /** The post-run TTL probe: what a key left without a TTL breaks, and what it does then. */
  readonly noTtl: { readonly invariant: string; readonly consequence: string };
  /** Answers a server clock moved back could give on its own, changing nothing (CheckSpec.clockRefusal). */
  clockRefusal?(input: I, output: unknown): boolean;
  /** Rows every coverage table shows, exercised or not, so a gap is visible. */
  readonly transitions: readonly string[];
  /** Transitions a certificate needs witnessed (each one of `transitions`). */
  readonly requiredTransitions: readonly RequiredTransition[];
  /** The scripts a `lua:DIR` implementation must hold (DIR/<name>.lua). */
  readonly scripts: readonly string[];
  /** The Redis key an implementation is handed for a logical key: one hash tag around all of it. */
  redisKey(namespace: string, logicalKey: string): string;
  /** By operation: what a second execution of it means (docs/certificate.md, duplicate effects).
   *  An operation not listed is still counted, and is no finding. */
  readonly duplicates?: Readonly<Record<string, DuplicateDeclaration>>;
  /** Reference client variants (`createReferenceSubject`'s `variant`), the first the default. */
  readonly referenceVariants?: readonly string[];
  /** The reference client over a scripts directory, as a Subject: loads the scripts on every master first. */
  openReference(redis: IORedisCluster, options: ReferenceOpenOptions): Promise<R>;
  /**
   * The reference client over independent masters (`--topology masters`), one client per master and
   * the pattern's own algorithm across them (the lock's Redlock). Absent: the pattern runs on a Redis
   * Cluster only, and `--topology masters` refuses it in one line.
   */
  openOnMasters?(masters: readonly Redis[], options: ReferenceOpenOptions): Promise<ReferenceSubject<any, any>>;
}

/** A registry holds patterns of every state, input and output type. */
export type AnyPattern = Pattern<any, any, any, ReferenceSubject<any, any>>;
