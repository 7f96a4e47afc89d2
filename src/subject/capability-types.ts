/**
 * The shape of declared capabilities, in a file of its own that imports nothing: the Subject
 * interface carries them; src/patterns/capabilities.ts parses and reads them against a pattern.
 */
export interface OperationCapability {
  /** `exact`, or one of the operation's coarse levels (the pattern's `levels`). */
  readonly level: string;
  /** The operation's answer comes with a holder handle that later calls of that holder receive. */
  readonly handle: boolean;
  /** It may undo itself inside the same call (the pattern's `givesBack`) and answer `{ answer, gaveBack: true }`. */
  readonly givesBack?: boolean;
}

export interface Capabilities {
  /** The supported operations (in the pattern's order), each with its level. */
  readonly operations: Readonly<Record<string, OperationCapability>>;
  /**
   * The semantic variants the implementation declared (`variants: { reacquire: 'counts' }`), by
   * name; absent or not listed: the pattern's default choice (src/patterns/variants.ts).
   */
  readonly variants?: Readonly<Record<string, string>>;
  /** False when nothing was declared: every operation, exactly (the contract before capabilities). */
  readonly declared: boolean;
}
