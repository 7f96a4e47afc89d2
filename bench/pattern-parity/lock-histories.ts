/**
 * Lock histories for bench/pattern-parity.ts, made without the checker: a plain store of (token,
 * deadline) per key written from lua/lock's contract, each operation taking effect at one instant
 * inside its interval (distinct per key, in the order of those instants), a lease running out at
 * its deadline. Legal by construction; `plantViolation` adds two acquires that cannot both have
 * won. Written and read as JSON lines (one operation a line), the file format the Go side
 * (bench/porcupine/lock.go) reads too.
 */
import type { History, OpRecord } from '../../src/history/types.ts';

export type LockOp =
  | { readonly op: 'acquire'; readonly token: string; readonly ttlMs: number }
  | { readonly op: 'release'; readonly token: string }
  | { readonly op: 'extend'; readonly token: string; readonly ttlMs: number };

/** One line of a file: an operation, its interval, how it ended and (answered) the script's reply. */
export interface LockLine {
  readonly id: number;
  readonly key: string;
  readonly client: number;
  readonly op: LockOp['op'];
  readonly token: string;
  readonly ttlMs?: number;
  readonly invokedAt: number;
  readonly completedAt: number;
  readonly outcome: 'ok' | 'info' | 'fail';
  /** ok only: 1 | 0 | -1 | null (nil). */
  readonly output?: 1 | 0 | -1 | null;
}

export interface LockWorkload {
  readonly ops: number;
  readonly keys: number;
  readonly seed: number;
  /** The leases drawn: short ones run out mid-history; one longer than every key's span never does. */
  readonly leasesMs: readonly number[];
  /** Clients per key, each with one operation at a time: at most this many in flight per key. */
  readonly clients: number;
  /** Share of operations whose client never learnt the answer (half of them took effect). */
  readonly indeterminate: number;
}

/** mulberry32, as bench/checker.ts: small, seeded, reproducible. */
function rng(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// bench/checker.ts's shape: instants 9–11 ms apart, intervals reaching at most 35 ms either side,
// so with one client per lane and lanes `clients` instants apart, a client never overlaps itself
// while `clients` x 9 > 70.
const GAP_MIN = 9;
const GAP_SPREAD = 3;
const REACH = 35;

export function lockLines(w: LockWorkload): LockLine[] {
  if (w.clients * GAP_MIN <= 2 * REACH)
    throw new RangeError(
      `clients must exceed ${Math.floor((2 * REACH) / GAP_MIN)} so a client's operations do not overlap`,
    );
  const random = rng(w.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const lines: LockLine[] = [];
  const perKey = Math.ceil(w.ops / w.keys);
  for (let k = 0; k < w.keys && lines.length < w.ops; k++) {
    const key = `lock:{bench:${k}}`;
    const attempts = Array.from({ length: w.clients }, () => 0);
    let holder: { token: string; deadline: number } | undefined;
    let at = random() * 100;
    for (let i = 0; i < perKey && lines.length < w.ops; i++) {
      at = Math.round(at + GAP_MIN + Math.floor(random() * GAP_SPREAD));
      const lane = i % w.clients;
      const own = `c${lane}a${attempts[lane]}`;
      const roll = random();
      const input: LockOp =
        roll < 0.45
          ? { op: 'acquire', token: own, ttlMs: pick(w.leasesMs) }
          : roll < 0.65
            ? { op: 'extend', token: own, ttlMs: pick(w.leasesMs) }
            : roll < 0.9
              ? { op: 'release', token: own }
              : // A stray call with another client's token.
                {
                  op: random() < 0.5 ? 'release' : 'extend',
                  token: `c${(lane + 1) % w.clients}a${attempts[(lane + 1) % w.clients]}`,
                  ttlMs: pick(w.leasesMs),
                };
      const roll2 = random();
      const outcome = roll2 < w.indeterminate ? 'info' : roll2 < w.indeterminate + 0.01 ? 'fail' : 'ok';
      const applies = outcome === 'ok' || (outcome === 'info' && random() < 0.5);
      if (holder && holder.deadline <= at) holder = undefined;
      let output: LockLine['output'] = null;
      if (input.op === 'acquire') output = holder ? 0 : 1;
      else if (holder) output = holder.token === input.token ? 1 : -1;
      if (applies) {
        if (input.op === 'acquire' && !holder) holder = { token: input.token, deadline: at + input.ttlMs };
        else if (input.op === 'extend' && output === 1) holder = { token: input.token, deadline: at + input.ttlMs };
        else if (input.op === 'release' && output === 1) holder = undefined;
      }
      // A client whose own release went through takes a new token, as a new attempt would.
      if (applies && input.op === 'release' && output === 1 && input.token === own) attempts[lane]++;
      lines.push({
        id: lines.length,
        key,
        client: k * w.clients + lane,
        op: input.op,
        token: input.token,
        ...(input.op === 'release' ? {} : { ttlMs: input.ttlMs }),
        invokedAt: at - Math.floor(random() * (REACH + 1)),
        completedAt: at + Math.floor(random() * (REACH + 1)),
        outcome,
        ...(outcome === 'ok' ? { output } : {}),
      });
    }
  }
  return lines;
}

/**
 * Two acquires by tokens nothing else uses, both answered 1 in one and the same 10 ms interval, 1 s
 * after the last operation of a key in the middle: whichever took effect first holds the lock with
 * a lease longer than 10 ms (`ttlMs`, plus the checker's tolerance), and only its own token could
 * free it, so the second must have answered 0. Illegal by construction.
 */
export function plantViolation(lines: readonly LockLine[], ttlMs: number): LockLine[] {
  const keys = [...new Set(lines.map((l) => l.key))];
  const key = keys[Math.floor(keys.length / 2)];
  const end = Math.max(...lines.filter((l) => l.key === key).map((l) => l.completedAt));
  let id = Math.max(...lines.map((l) => l.id));
  let client = Math.max(...lines.map((l) => l.client));
  const won = (token: string): LockLine => ({
    id: ++id,
    key,
    client: ++client,
    op: 'acquire',
    token,
    ttlMs,
    invokedAt: end + 1000,
    completedAt: end + 1010,
    outcome: 'ok',
    output: 1,
  });
  return [...lines, won('planted-a'), won('planted-b')];
}

export const toJsonLines = (lines: readonly LockLine[]): string =>
  lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** A file of lines as the history chaoslua checks: every field checked, one line named when wrong. */
export function readLockLines(text: string): History<LockOp, unknown> {
  const ops: OpRecord<LockOp, unknown>[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const l = JSON.parse(raw) as LockLine;
    const bad = (what: string) => new Error(`line ${i + 1}: ${what}`);
    if (!['acquire', 'release', 'extend'].includes(l.op))
      throw bad(`op must be acquire, release or extend, got ${l.op}`);
    if (typeof l.token !== 'string' || typeof l.key !== 'string') throw bad('token and key must be strings');
    if (l.op !== 'release' && !Number.isSafeInteger(l.ttlMs)) throw bad(`${l.op} needs an integer ttlMs`);
    if (!Number.isFinite(l.invokedAt) || !(l.completedAt >= l.invokedAt))
      throw bad('invokedAt <= completedAt, both numbers');
    const input: LockOp =
      l.op === 'release' ? { op: 'release', token: l.token } : { op: l.op, token: l.token, ttlMs: l.ttlMs! };
    // Each record written out whole: `{ ...base, outcome }` gives every object a map of its own in
    // V8 (Node 20), which makes every property read in the checker a slow lookup (3x its check time).
    const { id, client, key, invokedAt, completedAt } = l;
    if (l.outcome === 'ok')
      ops.push({ type: 'op', id, client, key, input, invokedAt, completedAt, outcome: 'ok', output: l.output });
    else if (l.outcome === 'info')
      ops.push({ type: 'op', id, client, key, input, invokedAt, completedAt, outcome: 'info', error: 'timed out' });
    else if (l.outcome === 'fail')
      ops.push({ type: 'op', id, client, key, input, invokedAt, completedAt, outcome: 'fail', error: 'refused' });
    else throw bad(`outcome must be ok, info or fail, got ${String(l.outcome)}`);
  });
  return { ops, faults: [], topology: [] };
}
