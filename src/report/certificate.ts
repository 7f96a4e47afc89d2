import type { PatternName } from '../generator/schedule.ts';

/**
 * certificate.json — a stable, documented format (docs/certificate.md). Add fields, never change
 * the meaning of one; bump `version` if that ever becomes unavoidable.
 */
export interface Certificate {
  readonly version: 1;
  readonly certified: boolean;
  readonly pattern: PatternName;
  readonly implementation: { readonly spec: string; readonly sha256: string };
  readonly redis: { readonly version: string; readonly topology: string; readonly cluster: string };
  readonly seed: number;
  readonly runs: number;
  readonly operations: number;
  readonly faults: Readonly<Record<string, number>>;
  readonly invariants: readonly {
    readonly invariant: string;
    readonly passed: boolean;
    readonly violations: readonly { readonly invariant: string; readonly message: string; readonly counterexample?: string }[];
  }[];
  /** Findings that are not invariant violations: lint errors, crashes, hangs, answers outside the contract. */
  readonly findings: readonly string[];
  /** Runs whose history was explained only by a lossy failover dropping acknowledged writes. */
  readonly replicationLosses: number;
  readonly issuedAt: string;
  readonly seconds: number;
}
