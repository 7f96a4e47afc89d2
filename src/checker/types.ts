/**
 * What the checker takes and what it returns. Results are plain data (no Infinity, no class
 * instances, no functions) because the report and the counterexample file store them as JSON.
 */
import type { FaultRecord, OpRecord } from '../history/types.ts';

export interface CheckOptions {
  /** Slack in ms around every expiry window: Redis's millisecond granularity and cached time. Default 25. */
  readonly eps?: number;
  /** Most search states explored per key before the key's verdict becomes `unknown`. Default 500,000. */
  readonly budget?: number;
  /**
   * Most milliseconds one key's search (strict and lossy re-check together) may take before its
   * verdict becomes `unknown`; Infinity for none. Default Infinity: a verdict that depends on the
   * machine's speed does not replay, so the state budget stays the reproducible limit.
   */
  readonly budgetMs?: number;
  /** Delta-debug each illegal key down to a minimal violating sub-history. Default true. */
  readonly minimise?: boolean;
  /** Search states the minimisation of one key may spend in total. Default 200,000. */
  readonly minimiseBudget?: number;
}

/** Operation ids by operation kind (the input's `op`), each kind's ids in ascending order. */
export type DuplicateEffects = Readonly<Record<string, readonly number[]>>;

export type ResolvedCheckOptions = Required<CheckOptions>;

/**
 * `replication-loss`: illegal as recorded, legal once a lossy fault may drop acknowledged writes.
 * `clock-loss`: illegal as recorded, legal once leases may end early or late by the server clock
 * offsets the harness injected (./clock-loss.ts). Both are the environment's, not the implementation's.
 */
export type Verdict = 'ok' | 'illegal' | 'replication-loss' | 'clock-loss' | 'unknown';

export interface KeyVerdict {
  readonly key: string;
  readonly verdict: Verdict;
  /** Operations of this key the search considered (ok and info; fail ops never took effect). */
  readonly ops: number;
  readonly statesExplored: number;
  /** Why the verdict is what it is, in words (budget exhausted, which fault explains a loss, ...). */
  readonly note?: string;
  /** For an illegal key: ids of the longest linearizable prefix found, in linearization order. */
  readonly longestPrefix?: readonly number[];
  /** For an illegal key: id of the first operation no order could explain. */
  readonly unexplained?: number;
  /** For an ok key: ids of the operations only a second execution explains (duplicate effects). */
  readonly duplicates?: readonly number[];
}

export interface Violation<I = unknown, O = unknown> {
  /** e.g. one-winner, no-stale-overwrite, no-resurrection, one-holder, limit-respected, model-conformance. */
  readonly invariant: string;
  /** One plain-English sentence naming clients, key and times. */
  readonly message: string;
  readonly key: string;
  /** The operations the sentence talks about, in invocation order. */
  readonly witness: readonly OpRecord<I, O>[];
  /** A minimal sub-history of the key that is still illegal (the whole key's ops if minimisation was off). */
  readonly subHistory: readonly OpRecord<I, O>[];
  /** The model's state at the point no order could continue, described by the model. */
  readonly modelState: string;
  /** The output the model prescribes there for the unexplained operation. */
  readonly expected: string;
}

export interface ReplicationLoss<I = unknown, O = unknown> {
  readonly key: string;
  /** The violation the strict check would have reported. */
  readonly invariant: string;
  readonly message: string;
  /** The lossy faults whose rollback explains the history. */
  readonly faults: readonly FaultRecord[];
  readonly witness: readonly OpRecord<I, O>[];
}

export interface CheckStats {
  readonly ops: number;
  readonly keys: number;
  readonly statesExplored: number;
  /**
   * The most search states one key took (its statesExplored): the figure a budget is measured
   * against, and what a soak reports. Optional only so that results stored before it existed still read.
   */
  readonly maxKeyStates?: number;
  /** States spent delta-debugging illegal keys (not counted in statesExplored). */
  readonly minimiseStatesExplored: number;
  /** States spent re-checking whether a second execution was needed (duplicate effects; not in statesExplored). */
  readonly duplicateStatesExplored?: number;
  readonly ms: number;
}

export interface CheckResult<I = unknown, O = unknown> {
  readonly verdict: Verdict;
  /** One entry per key, in order of the key's first operation. */
  readonly keys: readonly KeyVerdict[];
  readonly violations: readonly Violation<I, O>[];
  readonly replicationLosses: readonly ReplicationLoss<I, O>[];
  /** Keys a moved server clock explains (`faults` are the clock faults). Optional only so that results stored before it existed still read. */
  readonly clockLosses?: readonly ReplicationLoss<I, O>[];
  /**
   * Operations only a second execution explains (a resend after a cut connection ran them twice),
   * by operation kind, with their ids: counted on keys found linearizable (src/checker/duplicates.ts).
   * Optional only so that results stored before it existed still read.
   */
  readonly duplicateEffects?: DuplicateEffects;
  readonly stats: CheckStats;
}
