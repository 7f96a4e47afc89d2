/**
 * certificate.json — a stable, documented format (docs/certificate.md). Add fields, never change
 * the meaning of one; bump `version` if that ever becomes unavoidable.
 */
export interface Certificate {
  readonly version: 1;
  readonly certified: boolean;
  /** The pattern's name (a registry name). */
  readonly pattern: string;
  /** For a pattern a team declared (`--pattern FILE`): its file, relative to where the job ran, and the file's SHA-256. */
  readonly patternFile?: { readonly file: string; readonly sha256: string };
  readonly implementation: { readonly spec: string; readonly sha256: string };
  /**
   * `clusters`: how many local clusters the runs were dealt to (--clusters), when more than one; the topology is the first's.
   * `version` (valkey_version on Valkey), `server` (redis or valkey), `allocator` and `features` are probed on a running
   * node (docs/servers.md); `asked` is `--server` as given, when given. Certificates before these fields have only `version`.
   * `image`: the container image the nodes ran, on the compose backend.
   */
  readonly redis: {
    readonly version: string;
    readonly server?: string;
    readonly allocator?: string;
    readonly features?: {
      readonly functions: boolean;
      readonly shebangFlags: boolean;
      readonly evictsScripts: boolean;
      readonly frozenTime: boolean;
    };
    readonly asked?: string;
    readonly image?: string;
    readonly topology: string;
    readonly cluster: string;
    readonly clusters?: number;
  };
  /** `--durability wait:N:T` when the job ran with it: writes were WAITed for, lost-acknowledged-write judged. */
  readonly durability?: string;
  /**
   * The pattern's settings the sessions drew with (`--set NAME=VALUE`), every one (defaults
   * included), in the pattern's order. Absent for a pattern without settings, and in certificates
   * written before settings existed (those drew the defaults).
   */
  readonly settings?: Readonly<Record<string, number>>;
  readonly seed: number;
  /** Runs judged (discarded runs are replaced and never counted here). */
  readonly runs: number;
  /** Runs thrown away because the cluster needed a second heal, with the cause of each. */
  readonly discarded?: { readonly runs: number; readonly causes: readonly string[] };
  readonly operations: number;
  readonly faults: Readonly<Record<string, number>>;
  /** Faults asked that the cluster does not run (an external cluster: node faults, or destructive ones without --allow-destructive). */
  readonly skippedFaults?: readonly string[];
  /** What the judged runs exercised; `missing` says what a certificate lacked (docs/certificate.md). */
  readonly evidence?: {
    readonly minOkPerOperation: number;
    /** Answers per operation: `info` counts indeterminate ones; `shares` each outcome's share of `issued` (3 decimals). */
    readonly operations: Readonly<
      Record<
        string,
        {
          readonly issued: number;
          readonly ok: number;
          readonly fail: number;
          readonly info: number;
          readonly shares?: { readonly ok: number; readonly fail: number; readonly info: number };
        }
      >
    >;
    readonly transitions: Readonly<Record<string, number>>;
    readonly missing: readonly string[];
  };
  /**
   * Present when the implementation declared capabilities: its supported operations, each with the
   * level it answers at (`exact`, or a coarse one such as `boolean`; `+handle` when it hands out
   * holder handles). An operation not listed was never drawn.
   */
  readonly capabilities?: Readonly<Record<string, string>>;
  /**
   * Present when the implementation declared semantic variants of the pattern (docs/module-contract.md):
   * variant -> the choice it promised and was judged by (`{ reacquire: 'counts' }`). A variant not
   * listed was judged by the pattern's default.
   */
  readonly variants?: Readonly<Record<string, string>>;
  /** Present when the implementation declared where it keeps its keys (the probes read those). */
  readonly keyMapping?: string;
  readonly invariants: readonly {
    readonly invariant: string;
    /** Never true for a not-applicable invariant. */
    readonly passed: boolean;
    /** Present when the declared operations and levels cannot witness it: why (docs/certificate.md). */
    readonly notApplicable?: string;
    /** Present when the operations witnessing it answered mostly indeterminate (docs/certificate.md). */
    readonly barelyWitnessed?: string;
    readonly violations: readonly {
      readonly invariant: string;
      readonly message: string;
      readonly counterexample?: string;
    }[];
  }[];
  /** Findings that are not invariant violations: lint errors, crashes, hangs, answers outside the contract. */
  readonly findings: readonly string[];
  /** Present when the job asked for fewer faults than all (`--faults`): the list asked. */
  readonly faultsAsked?: readonly string[];
  /** Lint advice on lua: scripts (`file:line:col rule (advice) message`): shown, never a refusal (src/lint). */
  readonly lintAdvice?: readonly string[];
  /** Present (true) when the environment ended the job before its runs were done: never certified;
   *  the first finding (`environment: ...`) says what failed and how many runs finished. */
  readonly incomplete?: true;
  /** Runs whose history was explained only by a lossy failover dropping acknowledged writes. */
  readonly replicationLosses: number;
  /**
   * Present when client-clock was in the fault set: the client clock assumption it was earned under,
   * in one line (the offsets drawn, and how far they reached into the implementation: a door that
   * could not move what the implementation reads says so).
   */
  readonly clientClocks?: string;
  /** Runs whose history was explained only by a server clock the harness moved (clock faults). Absent: none ran. */
  readonly clockLosses?: number;
  /** The clocks the certificate holds under: each clock fault's bounds, or that every clock was true. */
  readonly clocks?: readonly string[];
  /** Per operation of the pattern: operations only a second execution explains, summed over the
   *  runs (a resend after a cut connection ran them twice; docs/certificate.md). */
  readonly duplicateEffects?: Readonly<Record<string, number>>;
  /** Findings the pattern declares for duplicate effects (`duplicate-hit: ...`): reported, and
   *  certified unless the pattern marks one a violation (then it is in `findings` too). */
  readonly duplicateFindings?: readonly string[];
  readonly issuedAt: string;
  readonly seconds: number;
  /** Present when a run failed: which judged run failed first and the seconds into the chaos phase it ended (before shrinking). */
  readonly firstFailure?: { readonly run: number; readonly seconds: number };
  /** `certify --shard k/n`: this certificate covers one shard; evidence is judged by `merge`. */
  readonly shard?: {
    readonly index: number;
    readonly count: number;
    /** What decides the draws besides the seed (runs asked, faults, clients, keys): shards merged must share it. */
    readonly plan?: string;
  };
  /** `merge`: the shards this certificate combines. */
  readonly merged?: {
    readonly count: number;
    readonly shards: readonly {
      readonly index: number;
      readonly file: string;
      readonly certified: boolean;
      readonly runs: number;
      readonly seconds: number;
    }[];
  };
  /** The regression corpus replayed before exploring (src/corpus). */
  readonly corpus?: {
    readonly dir: string;
    readonly entries: readonly {
      readonly id: string;
      readonly file: string;
      readonly status: string;
      readonly attempts: number;
      readonly detail: string;
      readonly foundAgainst: string;
    }[];
    readonly saved: readonly string[];
  };
}
