/**
 * One key's history turned into the entries the linearization search orders: the real operations,
 * a virtual expiry per operation that can set a lease (DESIGN.md, "The model and time"), and, in the
 * relaxed re-check, a virtual rollback per lossy fault.
 */
import { overlaps } from '../history/overlap.ts';
import type { FaultRecord, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';

export const REAL = 0;
export const EXPIRE = 1;
export const FAULT = 2;
/** A possible second execution of an operation whose connection was cut: a client that resends
 *  unanswered commands on reconnect may run it twice, and only the last reply is seen. It takes
 *  effect within the operation's window with any output, or not at all. */
export const GHOST = 3;

export interface KeyProblem<S, I, O> {
  readonly model: Model<S, I, O>;
  /** The key's ok and info operations. */
  readonly ops: readonly OpRecord<I, O>[];
  readonly faults: readonly FaultRecord[];
  /** Number of entries; entry i owns list nodes 2i (call) and 2i+1 (return). */
  readonly n: number;
  readonly kind: Uint8Array;
  /** Earliest instant the entry may take effect. */
  readonly callAt: Float64Array;
  /** Latest instant; Infinity when unbounded (info ops and their expiries). */
  readonly returnAt: Float64Array;
  /** REAL and GHOST: index into ops. EXPIRE: entry index of the operation that set the lease. FAULT: index into faults. */
  readonly ref: Int32Array;
  /** EXPIRE: the lease tag (id of the operation that set it). */
  readonly tag: Float64Array;
  /** Lease tag (operation id) -> its expiry entry, for the relaxed rollback. */
  readonly expiryEntryOfTag: ReadonlyMap<number, number>;
  /** Ok operations: the search has succeeded once none is left to place. */
  readonly mandatory: number;
  /**
   * Per entry, the replicas WAIT acknowledged its write on (0: none, or not guarded). In a guarded
   * problem a rollback may not discard a write acknowledged on at least as many replicas as its fault
   * failed nodes (`lost-acknowledged-write`); unguarded, every entry is 0 and any rollback is allowed.
   */
  readonly acknowledged: Uint8Array;
  /** Built with guards (some answered write carries WAIT's count). */
  readonly guarded: boolean;
}

/** A write WAIT acknowledged on `replicas` survives a fault that failed at most that many nodes (unknown: none). */
export function protects(replicas: number, fault: FaultRecord): boolean {
  return replicas >= 1 && fault.failedNodes !== undefined && fault.failedNodes <= replicas;
}

/**
 * An operation's lease length for its expiry entry. A non-positive one (PEXPIRE with a negative time
 * deletes the key at once) ends immediately: left negative, the expiry's window would close before its
 * own operation was invoked and the search could not place the two in any order that explains both.
 */
function leaseMs<I>(model: Model<unknown, I, unknown>, input: I): readonly [number, number] | undefined {
  const range = model.expiryRangeMs?.(input);
  if (range !== undefined) return [Math.max(0, range[0]), Math.max(0, range[1])];
  const ms = model.expiryMs(input);
  return ms === undefined ? undefined : [Math.max(0, ms), Math.max(0, ms)];
}

export function buildKeyProblem<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly OpRecord<I, O>[],
  eps: number,
  faults: readonly FaultRecord[] = [],
  cuts: readonly FaultRecord[] = [],
  guarded = false,
  /** Index into ops of an operation whose second execution is left out (the re-check of a duplicate effect). */
  withoutSecondExecutionOf = -1,
  /**
   * How far the server clocks the harness moved may shift a lease's end, either way (./clock-loss.ts):
   * one figure for every lease, or one per operation (0 for a lease no moved clock lived under).
   */
  clockSlackMs: number | ArrayLike<number> = 0,
): KeyProblem<S, I, O> {
  const slackOf = (op: number) => (typeof clockSlackMs === 'number' ? clockSlackMs : clockSlackMs[op]);
  const ghosts: number[] = [];
  for (let i = 0; i < ops.length && cuts.length > 0; i++) {
    const op = ops[i];
    if (i === withoutSecondExecutionOf) continue;
    const end = op.outcome === 'ok' ? op.completedAt : Infinity;
    if (cuts.some((c) => overlaps(c, op.invokedAt, end))) ghosts.push(i);
  }
  // A lease that cannot run out before the last answer was given changes nothing any answer saw:
  // its expiry entry is left out (a history of long leases then costs what one without leases does).
  let lastAnswer = -Infinity;
  for (const op of ops) if (op.outcome === 'ok') lastAnswer = Math.max(lastAnswer, op.invokedAt, op.completedAt);
  const endsInTime = (op: number, ms: readonly [number, number]) =>
    ops[op].invokedAt + ms[0] - eps - slackOf(op) <= lastAnswer;
  const expiring: { entry: number; op: number; ms: readonly [number, number] }[] = [];
  for (let i = 0; i < ops.length; i++) {
    const ms = leaseMs(model, ops[i].input);
    if (ms !== undefined && endsInTime(i, ms)) expiring.push({ entry: i, op: i, ms });
  }
  ghosts.forEach((op, g) => {
    const ms = leaseMs(model, ops[op].input);
    if (ms !== undefined && endsInTime(op, ms)) expiring.push({ entry: ops.length + g, op, ms });
  });
  const firstExpiry = ops.length + ghosts.length;
  const n = firstExpiry + expiring.length + faults.length;
  const kind = new Uint8Array(n);
  const callAt = new Float64Array(n);
  const returnAt = new Float64Array(n);
  const ref = new Int32Array(n);
  const tag = new Float64Array(n).fill(NaN);
  const expiryEntryOfTag = new Map<number, number>();
  const acknowledged = new Uint8Array(n);
  let mandatory = 0;

  ops.forEach((op, i) => {
    // Only an answered write carries WAIT's count; a second execution (ghost) is not guarded.
    if (guarded && op.outcome === 'ok') acknowledged[i] = Math.min(255, op.acknowledgedReplicas ?? 0);
    kind[i] = REAL;
    ref[i] = i;
    callAt[i] = op.invokedAt;
    // An info op may take effect at any instant after its invocation, or never.
    // Clamped so a record whose clock readings cross cannot make the search fail on its own.
    returnAt[i] = op.outcome === 'ok' ? Math.max(op.invokedAt, op.completedAt) : Infinity;
    if (op.outcome === 'ok') mandatory++;
  });
  ghosts.forEach((i, g) => {
    const e = ops.length + g;
    kind[e] = GHOST;
    ref[e] = i;
    callAt[e] = ops[i].invokedAt;
    returnAt[e] = returnAt[i];
  });
  expiring.forEach(({ entry, op: opIndex, ms }, j) => {
    const e = firstExpiry + j;
    const op = ops[opIndex];
    kind[e] = EXPIRE;
    ref[e] = entry;
    tag[e] = op.id;
    const slack = slackOf(opIndex);
    callAt[e] = op.invokedAt + ms[0] - eps - slack;
    returnAt[e] = op.outcome === 'ok' ? Math.max(op.invokedAt, op.completedAt) + ms[1] + eps + slack : Infinity;
    // A ghost shares its operation's id, window and so expiry window: the operation's own entry is the one named.
    if (!expiryEntryOfTag.has(op.id)) expiryEntryOfTag.set(op.id, e);
  });
  faults.forEach((fault, j) => {
    const f = firstExpiry + expiring.length + j;
    kind[f] = FAULT;
    ref[f] = j;
    callAt[f] = fault.startedAt;
    returnAt[f] = Math.max(fault.startedAt, fault.endedAt);
  });
  return {
    model,
    ops,
    faults,
    n,
    kind,
    callAt,
    returnAt,
    ref,
    tag,
    expiryEntryOfTag,
    mandatory,
    acknowledged,
    guarded,
  };
}

/**
 * The initial doubly linked list of call and return nodes in time order. At equal times calls come
 * first: intervals are closed, so two operations touching at an instant may be ordered either way.
 */
export function sortedNodes(problem: KeyProblem<unknown, unknown, unknown>): Int32Array {
  const { n, callAt, returnAt } = problem;
  const nodes = new Int32Array(2 * n);
  for (let i = 0; i < 2 * n; i++) nodes[i] = i;
  // Each node's time read once into an array the comparisons index, rather than a closure choosing
  // between callAt and returnAt on every comparison (bench/checker.ts: the sort was 4% of its profile).
  const time = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    time[2 * i] = callAt[i];
    time[2 * i + 1] = returnAt[i];
  }
  // Sorted here rather than by TypedArray.sort with a comparator, which calls back into JavaScript
  // on every comparison (12% of a check of 20,000 lock operations). The nodes come nearly in order
  // (calls in invocation order, each return a few calls late), so an insertion sort does it in a
  // few moves a node; past 16 moves a node on average it hands over to a merge sort (expiry
  // entries, placed after every operation, can be far from their places).
  const before = (a: number, b: number) =>
    time[a] < time[b] || (time[a] === time[b] && ((a & 1) < (b & 1) || ((a & 1) === (b & 1) && a < b)));
  let moves = 0;
  const movesAllowed = 16 * 2 * n;
  for (let i = 1; i < 2 * n && moves <= movesAllowed; i++) {
    const node = nodes[i];
    let j = i - 1;
    while (j >= 0 && before(node, nodes[j])) {
      nodes[j + 1] = nodes[j];
      j--;
    }
    nodes[j + 1] = node;
    moves += i - 1 - j;
  }
  return moves <= movesAllowed ? nodes : mergeSorted(nodes, before);
}

/** A bottom-up merge sort of `nodes` by `before`; two runs already in order are joined without a merge. */
function mergeSorted(
  input: Int32Array<ArrayBuffer>,
  before: (a: number, b: number) => boolean,
): Int32Array<ArrayBuffer> {
  let nodes = input;
  const length = nodes.length;
  let spare = new Int32Array(length);
  for (let width = 1; width < length; width *= 2) {
    for (let from = 0; from < length; from += 2 * width) {
      const mid = Math.min(from + width, length);
      const to = Math.min(from + 2 * width, length);
      if (mid === to || !before(nodes[mid], nodes[mid - 1])) {
        for (let k = from; k < to; k++) spare[k] = nodes[k];
        continue;
      }
      let i = from;
      let j = mid;
      let k = from;
      while (i < mid && j < to) spare[k++] = before(nodes[j], nodes[i]) ? nodes[j++] : nodes[i++];
      while (i < mid) spare[k++] = nodes[i++];
      while (j < to) spare[k++] = nodes[j++];
    }
    [nodes, spare] = [spare, nodes];
  }
  return nodes;
}
