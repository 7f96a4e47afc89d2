import type { FaultName } from '../faults/index.ts';
import type { ChaosOutcome } from './chaos.ts';
import type { Cluster } from '../cluster/types.ts';
import type { ServerInfo } from '../cluster/features.ts';
import type { Subject } from '../subject/types.ts';
import type { Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { Judgement } from './judge.ts';
import type { CorpusOptions, CorpusReplay } from './corpus.ts';
import type { Shard } from '../runner/shard.ts';
import type { Durability } from '../plan/durability.ts';
import type { TopologySpec } from '../plan/topology.ts';

/** Where a job (and every CLI command) writes; tests pass their own. */
export interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** What `run` and `certify` share: the options of one chaos job, resolved (./options.ts). */
export interface JobOptions {
  readonly command: 'run' | 'certify';
  /** The pattern, resolved once from its name at the edge and handed down as a value. */
  readonly pattern: AnyPattern;
  readonly runs: number;
  readonly seed: number;
  readonly path?: string;
  readonly faults: readonly FaultName[];
  /** `--faults all` (or no --faults): on a server that evicts scripts the job adds script-evict, once
   *  it has probed the server (src/certify/partition-faults.ts). Absent: the faults as listed. */
  readonly allFaults?: boolean;
  readonly timeLimitMs: number;
  readonly clients?: number;
  readonly keys?: number;
  readonly cluster: string;
  /** `--topology masters[:N]`: independent masters instead of a Redis Cluster. Absent: a Redis Cluster. */
  readonly topology?: TopologySpec;
  /** Local clusters the job's runs are dealt to (./lanes.ts); 1 runs them one after another. */
  readonly clusters: number;
  readonly reportRoot: string;
  readonly json: boolean;
  readonly nodeTimeoutMs: number;
  readonly shrinkRuns: number;
  /** Stop shrinking after this long, ms; 0 or absent: no limit (jobOptionsFrom fills 30 s). */
  readonly shrinkTimeMs?: number;
  /** External clusters only: allow SCRIPT FLUSH, busy scripts and failovers. */
  readonly allowDestructive?: boolean;
  /** `--server`: as asked (a name or a path) and the binary it resolved to (src/cluster/servers.ts). Absent: the default server. */
  readonly server?: {
    readonly asked: string;
    readonly binary: string;
    readonly version?: { readonly server: string; readonly version: string; readonly major: number };
  };
  /** Machine-readable --impl (lua:DIR, module:PATH, cmd:...): what `replay` re-opens. */
  readonly implSpec?: string;
  /** The regression corpus replayed before exploring, and where new counterexamples are saved. */
  readonly corpus?: CorpusOptions;
  /** This job's part of a budget split across machines (`--shard k/n`). */
  readonly shard?: Shard;
  /** `--durability wait:N:T`: the implementation WAITs after each write and reports the replicas. */
  readonly durability?: Durability;
  /**
   * The pattern's settings (`--set NAME=VALUE`), every one filled (jobOptionsFrom). Absent: the
   * pattern has none, or the options were built by hand: the sessions then draw the defaults.
   */
  readonly settings?: Readonly<Record<string, number>>;
  /** The settings of the faults in the set (client-clock's clock-skew and clock-step), every one
   *  filled. Absent: no fault in the set has any (or the options were built by hand: the defaults). */
  readonly faultSettings?: Readonly<Record<string, number>>;
}

/** The implementation under test, opened on a started cluster: one subject per logical client. */
export interface OpenedImpl {
  readonly impl: string;
  readonly subjects: readonly Subject[];
  /** Findings that are not history violations (crash, hang, garbage answers), by message. */
  findings(): string[];
  /** Copy what the implementation wrote to stderr into the run folder (cmd: implementations); returns the copy. */
  saveStderr?(dir: string): string;
  /** Where its stderr goes while it runs (cmd: implementations): a temp file, removed once saved. */
  readonly stderrFile?: string;
  /** Prometheus text of each client's metrics (the SRE checklist), when the implementation keeps any. */
  metricsTexts?(): Promise<string[]>;
  /** What the implementation declared (a module's export, a program's 1.1 hello); absent: every operation, exactly. */
  readonly capabilities?: Capabilities;
  /** Its declared key mapping, in words. */
  readonly keyMapping?: string;
  /** How far a client's clock offset (client-clock) reaches into the implementation, in words (src/impl/client-clock.ts). */
  readonly clientClockReach?: string;
  close(): Promise<void>;
}

export type ImplOpener = (cluster: Cluster, clients: number) => Promise<OpenedImpl>;

export type { InvariantStatus } from './judge.ts';

/** A finished job: its verdict (./judge.ts), what ran and where its run folder is. */
export interface JobResult extends Omit<Judgement, 'unknown'> {
  readonly dir: string;
  readonly outcome: ChaosOutcome;
  readonly impl: string;
  readonly redisVersion: string;
  /** What the running server said it is and can do (src/cluster/features.ts); absent when no node answered the probes. */
  readonly server?: ServerInfo;
  /** The nodes' container image, on the compose backend (Cluster.image). */
  readonly image?: string;
  readonly topology: string;
  readonly counterexampleFile?: string;
  /** Faults asked (the default `all`) that an external cluster does not run. */
  readonly skippedFaults: readonly FaultName[];
  /** The corpus replayed first, entry by entry, and what this job added to it. */
  readonly corpus?: CorpusReplay;
  /** Post-run probes read under another name than the key handed over, or skipped, with why. */
  readonly probeNotes: readonly string[];
  /** What the implementation supports and how it answers (`declared: false`: every operation, exactly). */
  readonly capabilities: Capabilities;
  /** Its declared key mapping, in words. */
  readonly keyMapping?: string;
  /** How far a client's clock offset reached into the implementation (OpenedImpl.clientClockReach). */
  readonly clientClockReach?: string;
  /** The clusters the job's fresh runs were dealt to (1 on a given cluster or a replayed path, whatever --clusters said). */
  readonly lanes: number;
}
