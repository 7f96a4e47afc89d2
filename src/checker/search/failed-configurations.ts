/**
 * Lowe's memoisation: the configurations known to fail, looked up exactly (FailedConfigurations) and
 * up to dominance (DominatedConfigurations), and the Zobrist keys that hash the linearized set. Apart
 * from the search, which only asks and adds.
 */
import type { KeyProblem } from '../problem.ts';
import { EXPIRE, GHOST, REAL } from '../problem.ts';

/**
 * Configurations known to fail: (linearized set, state key). Keyed first by the set's Zobrist hash,
 * then by the state key, so that a lookup compares only sets that also share the state: with a
 * model whose every order gives a different state (appends), one set may fail in thousands of
 * states, and a bucket per set made each lookup compare long state strings one by one (Porcupine
 * fixed the same by folding the state's hash into its cache key). The exact set is compared too,
 * so a hash collision can never prune a live configuration.
 */
export class FailedConfigurations {
  private readonly byBits = new Map<number, Map<string, Uint16Array[]>>();
  /** Sets compared in lookups: what the cache costs beyond its two map reads. */
  comparisons = 0;

  mayHold(bitsHash: number): boolean {
    return this.byBits.size > 0 && this.byBits.has(bitsHash);
  }

  holds(bitsHash: number, bits: Uint16Array, stateKey: string): boolean {
    const sets = this.byBits.get(bitsHash)?.get(stateKey);
    if (sets === undefined) return false;
    for (const set of sets) {
      this.comparisons++;
      if (sameBits(set, bits)) return true;
    }
    return false;
  }

  /** Returns the stored copy of the set, which DominatedConfigurations keeps too. */
  add(bitsHash: number, bits: Uint16Array, stateKey: string): Uint16Array {
    let byState = this.byBits.get(bitsHash);
    if (byState === undefined) this.byBits.set(bitsHash, (byState = new Map()));
    const copy = bits.slice();
    const sets = byState.get(stateKey);
    if (sets === undefined) byState.set(stateKey, [copy]);
    else sets.push(copy);
    return copy;
  }
}

/**
 * Failed configurations seen again with more optional entries placed (Lowe's memoisation up to
 * dominance). An optional entry has no completion bound: an info op, its second execution, the
 * expiries of their leases. If (B, s) failed and A holds B plus optional entries, and the same
 * entries with a completion bound, then (A, s) fails too: any completion of (A, s) also completes
 * (B, s) (the model's steps depend on the state alone, and the entries placed only in A block
 * nothing, their return nodes lying at the end of the list), with fewer entries. That is the argument
 * returnsToEarlierState makes for its detours, so the search stays complete in the same sense: a
 * shortest linearization never passes through a dominated configuration, since the dominating one,
 * reached by the search, would give a shorter one. Two conditions keep the completion valid from
 * (B, s): an entry placed only in A brings the entries attached to it (its second execution, its
 * expiries) placed in A too, since from B they could not follow it; and at least one of them is not
 * an expiry, since the length counted is that of entries other than expiries.
 *
 * Without this, each subset of a dozen info acquires (taking the lock, letting it run out) placed
 * before an answer that no holder explains was its own configuration: a generated polling history
 * ran past 500,000 states. In a relaxed search with a rollback still to come the state key is the
 * whole lineage, and the entries added must not include an expiry: a placed expiry widens what the
 * rollback can reach (the lease run out), so from B the completion could lack that alternative.
 * Only the first DOMINATORS_KEPT failed sets per (bound entries, state) are kept: keeping fewer only
 * prunes less, and scanning thousands made each step cost more than it saved.
 */
const DOMINATORS_KEPT = 16;
export class DominatedConfigurations {
  private readonly byBound = new Map<number, Map<string, Uint16Array[]>>();
  /** Words of the optional entries' bits. */
  private readonly optional: Uint16Array;
  /** Words of the expiries' bits. */
  private readonly expiries: Uint16Array;
  /** Optional entry -> the entries attached to it (its second execution, its and that one's expiries). */
  private readonly attached: readonly (readonly number[] | undefined)[];
  /** False when the problem has fewer than two optional ops: little to dominate. */
  readonly active: boolean;

  constructor(problem: KeyProblem<unknown, unknown, unknown>, ghostOf: Int32Array) {
    const { n, kind, ref, returnAt } = problem;
    const words = Math.max(1, Math.ceil(n / 16));
    this.optional = new Uint16Array(words);
    this.expiries = new Uint16Array(words);
    const attached: number[][] = [];
    const attach = (to: number, e: number) => (attached[to] ??= []).push(e);
    let optionalOps = 0;
    for (let e = 0; e < n; e++) {
      if (kind[e] === EXPIRE) this.expiries[e >> 4] |= 1 << (e & 15);
      if (returnAt[e] !== Infinity) continue;
      this.optional[e >> 4] |= 1 << (e & 15);
      if (kind[e] !== EXPIRE) optionalOps++;
      if (kind[e] === REAL && ghostOf[e] !== -1) attach(e, ghostOf[e]);
      if (kind[e] === EXPIRE) {
        // The expiry belongs to the entry that sets its lease, and to the op whose second execution that is.
        const setter = ref[e];
        attach(setter, e);
        if (kind[setter] === GHOST) attach(ref[setter], e);
      }
    }
    // One optional op can at most double the configurations: not worth a second cache.
    this.active = optionalOps >= 2;
    this.attached = attached;
  }

  mayHold(boundHash: number): boolean {
    return this.byBound.size > 0 && this.byBound.has(boundHash);
  }

  /** `noExpiriesAdded`: while a rollback is to come, since a placed expiry widens what it can reach. */
  holds(boundHash: number, bits: Uint16Array, stateKey: string, noExpiriesAdded: boolean): boolean {
    const sets = this.byBound.get(boundHash)?.get(stateKey);
    if (sets === undefined) return false;
    for (const set of sets) if (this.dominates(set, bits, noExpiriesAdded)) return true;
    return false;
  }

  /** `bits`: a copy no one changes (FailedConfigurations' stored one). */
  add(boundHash: number, bits: Uint16Array, stateKey: string): void {
    let byState = this.byBound.get(boundHash);
    if (byState === undefined) this.byBound.set(boundHash, (byState = new Map()));
    const sets = byState.get(stateKey);
    if (sets === undefined) byState.set(stateKey, [bits]);
    else if (sets.length < DOMINATORS_KEPT) sets.push(bits);
  }

  /** Is `a` a failed configuration's set that `b` holds with optional entries added (see the class comment)? */
  private dominates(a: Uint16Array, b: Uint16Array, noExpiriesAdded: boolean): boolean {
    let nonExpiry = false;
    for (let w = 0; w < a.length; w++) {
      const extra = b[w] & ~a[w];
      // a within b, and only optional entries added.
      if ((a[w] & ~b[w]) !== 0 || (extra & ~this.optional[w]) !== 0) return false;
      if (noExpiriesAdded && (extra & this.expiries[w]) !== 0) return false;
      if ((extra & ~this.expiries[w]) !== 0) nonExpiry = true;
    }
    if (!nonExpiry) return false;
    for (let w = 0; w < a.length; w++) {
      for (let extra = b[w] & ~a[w]; extra !== 0; extra &= extra - 1) {
        const e = (w << 4) + (31 - Math.clz32(extra & -extra));
        for (const t of this.attached[e] ?? []) if (((b[t >> 4] >> (t & 15)) & 1) === 0) return false;
      }
    }
    return true;
  }
}

function sameBits(a: Uint16Array, b: Uint16Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Fixed pseudo-random 32-bit keys (xorshift32), one per entry: the same problem hashes the same way. */
export function zobristKeys(n: number): Int32Array {
  const keys = new Int32Array(n);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    keys[i] = x;
  }
  return keys;
}
