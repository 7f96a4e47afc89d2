/**
 * A system's specification as a handful of pure functions (Porcupine's model shape).
 * No I/O and no clocks: time enters only through the checker's virtual expiry operations
 * (see DESIGN.md, "The model and time") or through `timed()` in sequential mode.
 *
 * Every state carries the id of the operation that last set the key's expiry (the lease tag);
 * expiry of that lease is `expire(state, tag)`, a no-op when a later operation replaced it.
 */
export interface Step<S, O> {
  readonly state: S;
  readonly output: O;
}

export interface Model<S, I, O> {
  /** The pattern's name in the registry (src/patterns/index.ts), or a generic model's (register, kv). */
  readonly name: string;
  /** The state of a key nobody has touched. */
  init(): S;
  /** Apply `input` as operation `id`; an operation that sets an expiry stamps the state with `id`. */
  step(state: S, input: I, id: number): Step<S, O>;
  /** The lease/TTL set by operation `tag` ran out. No-op unless `tag` is the current lease tag. */
  expire(state: S, tag: number): S;
  /** The lease tag of the state, or null when the key has no expiry (absent). */
  leaseTag(state: S): number | null;
  /**
   * Optional, for a state holding several leases at once (each holder its own deadline): the tag of
   * every lease still live. Without it the state's only lease is `leaseTag`. `expire(state, tag)`
   * ends the one lease named; a tag once dropped from this list never comes back (tags are op ids).
   */
  leaseTags?(state: S): readonly number[];
  /** Milliseconds of expiry this input sets when it succeeds, or undefined if it never sets one. */
  expiryMs(input: I): number | undefined;
  /**
   * Optional, for a lease whose length is known only within bounds (a GCRA limiter's place is freed
   * one emission interval after its hit, or up to `burst` intervals when hits queued before it):
   * the shortest and longest it may last. The checker then lets its expiry fall anywhere from the
   * shortest after the operation began to the longest after it ended. Without it: `expiryMs` both.
   */
  expiryRangeMs?(input: I): readonly [number, number] | undefined;
  /** Is `observed` the output the model prescribes? (Normalises representation differences.) */
  outputMatches(expected: O, observed: unknown): boolean;
  /** A canonical string for memoisation: equal states give equal strings. */
  hashState(state: S): string;
  /**
   * Optional lookahead, for a model whose state only grows between resets (kv: an append extends
   * the string, a put replaces it). `resets`: may this input leave a state that does not extend the
   * one before? Such an input must leave the same state whatever the state before. `canStillObserve`:
   * could an operation with this input answer `observed` in some state that extends `state`? With
   * both, the search drops a state from which an answer still to come can no longer be matched,
   * neither directly nor after one of the resets that may still precede it.
   */
  resets?(input: I): boolean;
  canStillObserve?(state: S, input: I, observed: unknown): boolean;
  /**
   * Optional, with the lookahead: can `canStillObserve` ever answer false for this input (does its
   * answer read the state)? The search looks ahead only to such answers; an answer that fits every
   * state (kv: a put's or an append's ok) would only take a place in the lookahead's window.
   */
  observes?(input: I): boolean;
  /**
   * Optional lookahead, for a model whose answers name a holder (a lock's token): `requires` is the
   * holder an answer shows was current when it took effect (a release or extend answered 1: its
   * token), `grants` the holder an operation may make current (an acquire answered 1, or with its
   * answer unknown: `output` undefined), `holdsIdentity` whether a state has that holder current.
   * With all three, the search drops a configuration in which an answer still to come requires a
   * holder that is not current and that no operation still to place can make current.
   */
  requires?(input: I, output: unknown): string | undefined;
  grants?(input: I, output: unknown): string | undefined;
  holdsIdentity?(state: S, identity: string): boolean;
  /**
   * Optional, with the three above: `holderOf` the holder current in a state (undefined: none),
   * `requiresVacant` whether an answer shows no holder was current when it took effect (a lock's
   * acquire answered 1, a release or extend answered nil), `mayEnd` the holder whose hold a step of
   * the operation may end or renew (a release or an extend: its token). The contract: from a state
   * with holder H, a step of an operation whose `mayEnd` is not H leaves the state as it is, and so
   * does the expiry of a lease the state does not hold. With them the search drops a configuration
   * whose holder must be gone before an answer still to come (one that requires no holder, or
   * another) when no operation still to place nor expiry of the state's leases can end it in time.
   */
  holderOf?(state: S): string | undefined;
  requiresVacant?(input: I, output: unknown): boolean;
  mayEnd?(input: I): string | undefined;
  /**
   * Optional, with the holder lookahead: the state an operation leaves when it took effect with
   * this answer, whatever the state before (a lock's acquire or extend answered 1: its token holding
   * the lease the operation set, `id` being its tag); undefined when that depends on the state.
   * An operation with `mayEnd` H leaves a state with holder H either without one, or with H holding
   * the lease it sets itself, and it ends the hold only if that lease is not positive (expiryMs).
   * With this, a strict search first looks for two answers the holder lookahead shows no order can
   * join: one leaving holder H, then one requiring none or another, with nothing that can end H's
   * hold placeable between them (without it, such a key had every order of the operations before the
   * pair tried, past 500,000 states).
   */
  answerLeaves?(input: I, output: unknown, id: number): S | undefined;
  /**
   * Optional, with the holder lookahead: the holder an answer shows was not current when it took
   * effect, though some other was (a lock's release or extend answered -1: its own token). A hold
   * pair's second answer may be one of these.
   */
  excludes?(input: I, output: unknown): string | undefined;
  /** Optional: the state's name in coverage rows (`held`); without it, the state's `kind` field, else its description. */
  stateKind?(state: S): string;
  describeInput(input: I): string;
  describeOutput(output: O): string;
  describeState(state: S): string;
}
