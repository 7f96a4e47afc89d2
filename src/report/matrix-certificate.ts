/**
 * matrix.json — one implementation certified on several servers (`certify --servers a,b,c`, or
 * `merge` of per-server certificates): a verdict per server, each server's own certificate.json beside
 * it. Its own file, not a field of certificate.json: a certificate is one job on one server, and the
 * readers of certificate.json (--baseline, merge of shards) keep that meaning (docs/certificate.md).
 */
export interface MatrixCertificate {
  readonly version: 1;
  readonly kind: 'matrix';
  /** True only when every server's job was certified. */
  readonly certified: boolean;
  readonly pattern: string;
  readonly implementation: { readonly spec: string; readonly sha256: string };
  /** The one seed every server ran: the same schedules, so a difference between servers is the servers'. */
  readonly seed: number;
  /** The faults asked, when not every one (`--faults`); settings (`--set`) and durability, when given: the same on every server. */
  readonly faultsAsked?: readonly string[];
  readonly settings?: Readonly<Record<string, number>>;
  readonly durability?: string;
  readonly servers: readonly MatrixServer[];
  readonly issuedAt: string;
  /** Wall time of the whole matrix (certify: its jobs ran one after another; merge: the sum of theirs). */
  readonly seconds: number;
}

/** One server's verdict, read from its certificate.json. */
export interface MatrixServer {
  /** What was asked: `--server`'s name or path; in a merge, the certificate's `redis.asked`, else its probed server and version. */
  readonly asked: string;
  /** Probed on the running node (INFO): redis or valkey, its version, its allocator; absent when the job never reached a node. */
  readonly server?: string;
  readonly version: string;
  readonly allocator?: string;
  readonly features?: {
    readonly functions: boolean;
    readonly shebangFlags: boolean;
    readonly evictsScripts: boolean;
    readonly frozenTime: boolean;
  };
  /** certified | not certified | incomplete (the environment ended the job: no verdict) */
  readonly verdict: 'certified' | 'not certified' | 'incomplete';
  readonly runs: number;
  readonly operations: number;
  readonly seconds: number;
  /** The faults that ran, by kind (its certificate's `faults`): the same seed draws the same on every server. */
  readonly faults?: Readonly<Record<string, number>>;
  /** Invariants broken, each with its count of violations: `one-winner (2)`. */
  readonly failed: readonly string[];
  readonly findings: readonly string[];
  /** The server's certificate.json, relative to the matrix.json (certify) or as given (merge). */
  readonly certificate: string;
}
