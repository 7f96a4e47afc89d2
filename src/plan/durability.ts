/**
 * `--durability wait:N:TIMEOUT` (plan vocabulary: the CLI parses it, the subjects act on it, the
 * history records what came of it). After each operation the implementation sends `WAIT N TIMEOUT`
 * on the connection that ran its write and reports how many replicas acknowledged; the checker holds
 * a write acknowledged on N replicas to survive a fault that failed at most N nodes.
 */
export interface Durability {
  /** WAIT's numreplicas: at least 1. */
  readonly replicas: number;
  /** WAIT's timeout, ms: at least 1 (WAIT 0 would block forever, and an operation never may). */
  readonly timeoutMs: number;
}

/** What an implementation reports with an answer, besides the answer itself. */
export interface Receipt {
  /** Replicas that acknowledged the operation's write (WAIT's answer), with `--durability wait:N:T`. */
  acknowledgedReplicas?: number;
  /**
   * What the call also did, after the operation began, as model inputs with the answer the history
   * records, or an error when it is indeterminate (an acquire that gave the lock back: its holder's
   * release, which may or may not have reached Redis).
   */
  alsoDid?: (
    | { readonly input: unknown; readonly output: unknown }
    | { readonly input: unknown; readonly error: string }
  )[];
}

export function describeDurability(d: Durability): string {
  return `wait:${d.replicas}:${d.timeoutMs}`;
}
