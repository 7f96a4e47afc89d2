/**
 * The one record that joins the four roles (Jepsen's operation map, typed).
 * The runner writes these, the checker reads them; nothing else passes between them.
 *
 * Times are milliseconds on the runner's monotonic clock, relative to the start of the run.
 */

/** ok: took effect, result observed. fail: certainly did not take effect.
 *  info: indeterminate (timeout, dropped connection): may take effect at any instant after invokedAt. */
export type Outcome = 'ok' | 'fail' | 'info';

export interface OpRecord<I = unknown, O = unknown> {
  readonly type: 'op';
  /** Unique within one history; also the lease tag the model stamps. */
  readonly id: number;
  /** Logical client (a lane in the timeline). */
  readonly client: number;
  /** Logical key: the partition the checker splits on. */
  readonly key: string;
  /** The model input (carries the operation name in `op`). */
  readonly input: I;
  readonly invokedAt: number;
  /** When the client stopped waiting. For `info` this is not a bound on when it took effect. */
  readonly completedAt: number;
  readonly outcome: Outcome;
  /** Observed output, present when outcome is 'ok'. */
  readonly output?: O;
  /** Error text for 'fail' and 'info'. */
  readonly error?: string;
  /**
   * With `--durability wait:N:T`: how many replicas acknowledged the write (WAIT's answer, or what the
   * implementation reported). Absent when the implementation did not wait (or no durability was asked,
   * or the history predates the field): then no count protects the write against a failover.
   */
  readonly acknowledgedReplicas?: number;
  /**
   * Present on an operation the implementation did inside another call, which the client never
   * issued (a Redlock acquire that gave back: its release): the id of that call. Judged like any
   * other operation; counted in no operation's answers, since nobody asked for it.
   */
  readonly insideOf?: number;
}

/**
 * What the history records a fault as, in the order reports list them. A fault descriptor
 * (src/faults) names the kind its record has (a failover's by its mode, every toxic `toxic`, every
 * partition `partition`); `proxy-down` and `heal` appear in older histories and in scenarios.
 * `lossy` faults may drop writes a master acknowledged.
 */
export const FAULT_KINDS = [
  'client-freeze',
  'node-freeze',
  'script-flush',
  /** Distinct EVALs pushed the implementation's EVAL-loaded scripts out of the cache (7.4+, Valkey 8). */
  'script-evict',
  'busy-script',
  'failover-default',
  'failover-force',
  'failover-takeover',
  'toxic',
  'slow-network',
  'proxy-down',
  'kill-restart',
  /** Nodes cut off from each other (netns backend); lossy when a shard changed master. */
  'partition',
  /** A RESP point held commands, or their replies, matching one name. */
  'command-delay',
  /** A RESP point let a command run and cut its connection before the reply. */
  'reply-loss',
  /** A logical client ran under its own wall-clock offset (the detail names the client and the offset). */
  'client-clock',
  /** A node's wall clock stepped, strobed or drifted (clockOffsets says by how much, and when). */
  'clock-jump',
  'clock-strobe',
  'clock-drift',
  'heal',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRecord {
  readonly type: 'fault';
  readonly id: number;
  readonly kind: FaultKind;
  /** Node, client or link the fault hit, in words ("node 2 (master of 0-5460)"). */
  readonly target: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** True when acknowledged writes may have been lost while it was active
   *  (failover without handshake, automatic failover after a freeze, restart without persistence). */
  readonly lossy: boolean;
  /** True when clients' connections may have been cut while it was active: a client that resends
   *  unanswered commands on reconnect (ioredis does by default) may then run one operation twice. */
  readonly cutsConnections?: boolean;
  /**
   * How many nodes failed while it was active (stopped, or cut off from the largest side of a
   * partition): a write WAIT acknowledged on at least that many replicas must survive it
   * (`lost-acknowledged-write`). Absent when unknown (and in older histories): then no count protects a write.
   */
  readonly failedNodes?: number;
  readonly detail: string;
  /**
   * A clock fault's offsets, every one it set, in order (Jepsen's clock nemesis records each): from
   * `at` on, node `node`'s wall clock read `offsetMs` ahead of true (negative: behind). The heal sets
   * it true again at `endedAt`; a drifting clock's last entry is where it had drifted to by then.
   */
  readonly clockOffsets?: readonly ClockOffset[];
}

export interface ClockOffset {
  readonly at: number;
  /** The node's name in the topology ("n2"). */
  readonly node: string;
  readonly offsetMs: number;
}

export interface TopologyRecord {
  readonly type: 'topology';
  readonly at: number;
  /** e.g. "n0 master 0-5460 <- n3; n1 master 5461-10922 <- n4; ..." */
  readonly summary: string;
}

/** A look at a key after the clients finished: the TTL it was left with (PTTL: -2 absent, -1 none). */
export interface ProbeRecord {
  readonly type: 'probe';
  /** Logical key. */
  readonly key: string;
  readonly at: number;
  readonly pttlMs: number;
}

export type HistoryEvent = OpRecord | FaultRecord | TopologyRecord | ProbeRecord;

export interface History<I = unknown, O = unknown> {
  readonly ops: readonly OpRecord<I, O>[];
  readonly faults: readonly FaultRecord[];
  readonly topology: readonly TopologyRecord[];
  /** Post-run probes of each key (absent in histories recorded before probes existed). */
  readonly probes?: readonly ProbeRecord[];
}
