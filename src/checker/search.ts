/**
 * Wing & Gong's linearizability search with Lowe's memoisation, shaped as Porcupine's checkSingle:
 * a DFS over a doubly linked list of call/return nodes in time order. At each step any entry whose
 * call node precedes the first return node still in the list may be linearized (its invocation
 * precedes the earliest completion bound of what is left); reaching a return node means the entry
 * it belongs to can no longer be placed, so the search backtracks. A configuration (set of
 * linearized entries, model state) that failed once fails again, so it is cached and never re-entered.
 */
import { holdsLease, liveLeaseTags } from '../model/leases.ts';
import type { KeyProblem } from './problem.ts';
import { EXPIRE, FAULT, GHOST, REAL, protects, sortedNodes } from './problem.ts';

export interface StuckPoint<S> {
  /** Indices into problem.ops of the longest linearizable prefix found, in linearization order. */
  readonly prefix: readonly number[];
  /** Index into problem.ops of the operation that no order could place after that prefix. */
  readonly op: number;
  /** The model state after the prefix. */
  readonly state: S;
  /** Distinct states (this one first, at most STATES_PER_OP) in which the search found no way past `op`. */
  readonly states: readonly S[];
}

/** Enough alternatives to name the invariant; more would only cost memory on pathological keys. */
const STATES_PER_OP = 8;

export interface Rollback<S> {
  /** Index into problem.faults. */
  readonly fault: number;
  readonly from: S;
  readonly to: S;
  /** Indices into problem.ops of the operations whose effect the rollback discarded. */
  readonly discarded: readonly number[];
}

export interface SearchOutcome<S> {
  readonly verdict: 'ok' | 'illegal' | 'unknown';
  readonly explored: number;
  /** Failed-configuration cache: linearized sets compared in lookups. */
  readonly cacheComparisons: number;
  /** Deepest point the search could not get past (illegal, and unknown when one was seen). */
  readonly stuck?: StuckPoint<S>;
  /** Relaxed mode, ok: the rollbacks the explaining linearization used. */
  readonly rollbacks?: readonly Rollback<S>[];
  /**
   * Ok: indices into problem.ops of the operations whose second execution the linearization found
   * placed with an effect (not the forced no-op at the end of its window). The search takes the
   * first linearization it finds, so one of these may have been placed where it was not needed.
   */
  readonly secondExecutions?: readonly number[];
  /** Unknown: which budget ran out. */
  readonly exhausted?: 'states' | 'time';
  /** Configurations entered, by the kind of entry that made them: where a search's states go. */
  readonly enteredByKind?: EnteredByKind;
}

export interface EnteredByKind {
  readonly answered: number;
  readonly indeterminate: number;
  readonly secondExecution: number;
  readonly expiry: number;
  readonly rollback: number;
}

/** States between two readings of the clock: reading it on every step would cost more than the step. */
const CLOCK_EVERY = 256;

/** The states of the key along the current path, newest first: a promoted replica holds a prefix of them. */
interface Lineage<S> {
  readonly state: S;
  readonly hash: string;
  readonly parent: Lineage<S> | null;
  /**
   * The whole sequence, oldest first. A rollback keeps a prefix, so with two rollbacks to come the
   * order matters, not only the set: [a, b, c, b] can reach c again after a rollback to b, [a, c, b] cannot.
   */
  readonly sequence: string;
  /** Replicas WAIT acknowledged the write that made this state on (0: none, or an unguarded search). */
  readonly guard: number;
  /** In a guarded search, the operation (index into ops) whose second execution made this state, else -1. */
  readonly madeByGhostOf: number;
  /** reachKey's answer for this node, once asked. */
  reach?: string;
}

/**
 * The configuration's model part when one unguarded rollback is left: the current state and the
 * set of states the lineage holds. That rollback may restore any of them (or one with its lease run
 * out, which depends on the state and the placed expiries alone), nothing stops it earlier (no
 * guards), and after it no lineage is kept: the order the states came in changes nothing. Keyed
 * by the sequence instead, two detours of info acquires (each its own state, its lease tag) made in
 * either order were two configurations, and a dozen of them every order (issue 20).
 */
function reachKey<S>(lineage: Lineage<S>): string {
  if (lineage.reach !== undefined) return lineage.reach;
  const hashes = new Set<string>();
  for (let l: Lineage<S> | null = lineage; l !== null; l = l.parent) hashes.add(l.hash);
  lineage.reach = `${lineage.hash}\u0005${[...hashes].sort().join('\u0002')}`;
  return lineage.reach;
}

function lineageNode<S>(state: S, hash: string, parent: Lineage<S> | null, guard = 0, madeByGhostOf = -1): Lineage<S> {
  // A guard changes what a rollback may reach, and who made the state whether its operation can
  // guard it later, so both are part of the sequence the cache keys on.
  const own = `${hash}${guard > 0 ? `\u0003${guard}` : ''}${madeByGhostOf >= 0 ? `\u0004${madeByGhostOf}` : ''}`;
  return { state, hash, parent, guard, madeByGhostOf, sequence: parent === null ? own : `${parent.sequence}\u0002${own}` };
}

interface Alternative<S> {
  readonly state: S;
  readonly lineage: Lineage<S>;
}

/**
 * Strict mode checks the history as recorded. Relaxed mode also places each FAULT entry, whose
 * effect may roll the key back to any state on the current lineage (or that state with its lease
 * run out, when the lease's expiry was already placed).
 */
export function searchKey<S, I, O>(
  problem: KeyProblem<S, I, O>,
  budget: number,
  relaxed: boolean,
  /** performance.now() instant after which the search gives up as unknown. */
  deadline = Infinity,
): SearchOutcome<S> {
  const { model, ops, n, kind, ref, tag, callAt, returnAt } = problem;
  const HEAD = 2 * n;
  const next = new Int32Array(2 * n + 1);
  const prev = new Int32Array(2 * n + 1);
  let last = HEAD;
  for (const node of sortedNodes(problem)) {
    next[last] = node;
    prev[node] = last;
    last = node;
  }
  next[last] = -1;

  /** Entry -> the expiry entry of the lease it may set, or -1. */
  const expiryOf = new Int32Array(n).fill(-1);
  for (let e = 0; e < n; e++) if (kind[e] === EXPIRE) expiryOf[ref[e]] = e;
  const twinBefore = earlierTwins(problem);
  const ghostOf = ghostOfEntry(problem);
  const lookahead = relaxed ? null : lookaheadEntries(problem);
  const holders = holderEntries(problem);
  let lookaheadFrom = 0;
  const faultEntries: number[] = [];
  for (let e = 0; e < n; e++) if (kind[e] === FAULT) faultEntries.push(e);
  const pairs = holders === null ? [] : holdPairs(problem, holders, expiryOf);
  const pair = pairs.find((p) => p.candidates.length === 0 && (p.other === undefined || p.other.length === 0));
  if (pair !== undefined) {
    // The pair's second answer is where every order gets stuck, in the state the first one leaves.
    const none: EnteredByKind = { answered: 0, indeterminate: 0, secondExecution: 0, expiry: 0, rollback: 0 };
    const stuck: StuckPoint<S> = { prefix: [ref[pair.first]], op: ref[pair.second], state: pair.state, states: [pair.state] };
    return { verdict: 'illegal', explored: 0, cacheComparisons: 0, stuck, enteredByKind: none };
  }

  const words = new Uint16Array(Math.max(1, Math.ceil(n / 16)));
  const failed = new FailedConfigurations();
  const dominated = new DominatedConfigurations(problem, ghostOf);
  /** Zobrist hash of the linearized entries that have a completion bound (the part dominance must match). */
  let boundHash = 0;
  const zobrist = zobristKeys(n);
  let bitsHash = 0;
  const stackEntry = new Int32Array(n);
  const stackState: S[] = new Array<S>(n);
  const stackForced = new Uint8Array(n);
  const stackChoice = new Int32Array(n);
  const stackLineage: (Lineage<S> | null)[] = relaxed ? new Array<Lineage<S> | null>(n) : [];
  let sp = 0;

  let state = model.init();
  let lineage: Lineage<S> | null = relaxed ? lineageNode(state, model.hashState(state), null) : null;
  let mandatoryLeft = problem.mandatory;
  let faultsLeft = 0;
  for (let i = 0; i < n; i++) if (kind[i] === FAULT) faultsLeft++;
  let realDepth = 0;
  let explored = 0;
  /** Per kind of entry (EnteredByKind's fields in order), the configurations it entered. */
  const entered = new Float64Array(5);
  const enteredByKind = (): EnteredByKind => ({
    answered: entered[0],
    indeterminate: entered[1],
    secondExecution: entered[2],
    expiry: entered[3],
    rollback: entered[4],
  });
  let best: { prefix: number[]; op: number; state: S } | undefined;
  let bestDepth = -1;
  const stuckStates = new Map<number, { states: S[]; hashes: Set<string> }>();
  const stuckPoint = (): StuckPoint<S> | undefined => {
    if (best === undefined) return undefined;
    const bestHash = model.hashState(best.state);
    const others = (stuckStates.get(best.op)?.states ?? []).filter((other) => model.hashState(other) !== bestHash);
    return { ...best, states: [best.state, ...others] };
  };

  const isSet = (i: number): boolean => ((words[i >> 4] >> (i & 15)) & 1) === 1;
  const flip = (i: number): void => {
    words[i >> 4] ^= 1 << (i & 15);
    bitsHash ^= zobrist[i];
    if (returnAt[i] !== Infinity) boundHash ^= zobrist[i];
  };
  const lift = (i: number): void => {
    const call = 2 * i;
    const ret = call + 1;
    next[prev[call]] = next[call];
    if (next[call] !== -1) prev[next[call]] = prev[call];
    next[prev[ret]] = next[ret];
    if (next[ret] !== -1) prev[next[ret]] = prev[ret];
  };
  const unlift = (i: number): void => {
    const call = 2 * i;
    const ret = call + 1;
    next[prev[ret]] = ret;
    if (next[ret] !== -1) prev[next[ret]] = ret;
    next[prev[call]] = call;
    if (next[call] !== -1) prev[next[call]] = call;
  };

  /**
   * The model's hash of the state at each depth of the stack, computed once when first asked for:
   * the cache, the detour check and noEffect ask for the same state's hash again and again, and
   * hashing (a JSON string, for most models) was the most expensive step of a search.
   */
  const hashAt: (string | undefined)[] = new Array<string | undefined>(n + 1).fill(undefined);
  const hashAtDepth = (depth: number): string => (hashAt[depth] ??= model.hashState(depth === sp ? state : stackState[depth]));
  const currentHash = (): string => hashAtDepth(sp);

  /** The current configuration's model part: the state, and in relaxed mode what rollbacks can still reach. */
  const stateKey = (): string => {
    if (!relaxed) return currentHash();
    // Rollbacks still to come can reach any state of the lineage, so it is part of the configuration.
    if (faultsLeft === 0) return lineage!.hash;
    return faultsLeft === 1 && !problem.guarded ? reachKey(lineage!) : lineage!.sequence;
  };

  const push = (i: number, newState: S, forced: boolean, choice: number, nextLineage: Lineage<S> | null): void => {
    flip(i);
    stackEntry[sp] = i;
    stackState[sp] = state;
    stackForced[sp] = forced ? 1 : 0;
    stackChoice[sp] = choice;
    if (relaxed) {
      stackLineage[sp] = lineage;
      if (nextLineage === null) {
        const hash = model.hashState(newState);
        // Only an operation that changed the state guards it: WAIT covers the writes of its own
        // connection, and the replication stream is ordered, so a replica holding this write holds
        // every state before it; an operation that wrote nothing proves nothing about what it read.
        // One exception: the answered execution of an operation whose first, resent execution made
        // this very state wrote it again, and WAIT acknowledged that write.
        const guard = problem.acknowledged[i];
        const same = lineage!.hash === hash;
        const reaffirms = same && guard > lineage!.guard && kind[i] === REAL && lineage!.madeByGhostOf === ref[i];
        const ghostOf = kind[i] === GHOST && problem.guarded ? ref[i] : -1;
        nextLineage = same && !reaffirms ? lineage : lineageNode(newState, hash, lineage, guard, ghostOf);
      }
      lineage = nextLineage;
    }
    sp++;
    // A new state at this depth: its hash is the lineage's (relaxed), the one before's (same object), or not known yet.
    hashAt[sp] = relaxed ? lineage!.hash : newState === state ? hashAt[sp - 1] : undefined;
    state = newState;
    lift(i);
    if (holders !== null && holders.grants[i] !== -1) holders.grantersLeft[holders.grants[i]]--;
    left[passOf[i]]--;
    if (kind[i] === REAL) {
      realDepth++;
      if (returnAt[i] !== Infinity) mandatoryLeft--;
    } else if (kind[i] === FAULT) {
      faultsLeft--;
    }
  };

  const pop = (): number => {
    sp--;
    const i = stackEntry[sp];
    flip(i);
    unlift(i);
    if (holders !== null && holders.grants[i] !== -1) holders.grantersLeft[holders.grants[i]]++;
    left[passOf[i]]++;
    state = stackState[sp];
    if (relaxed) lineage = stackLineage[sp];
    if (kind[i] === REAL) {
      realDepth--;
      if (returnAt[i] !== Infinity) mandatoryLeft++;
    } else if (kind[i] === FAULT) {
      faultsLeft++;
    }
    return i;
  };

  /** Linearize entry i into newState unless that configuration already failed. */
  const enter = (i: number, newState: S, forced: boolean, choice: number, nextLineage: Lineage<S> | null): boolean => {
    push(i, newState, forced, choice, nextLineage);
    // Lowe's memoisation. The bitset's Zobrist hash is a cheap first filter, so the model's state
    // hash is computed only when some failed configuration has the same one.
    if (failed.mayHold(bitsHash) && failed.holds(bitsHash, words, stateKey())) {
      pop();
      return false;
    }
    if (dominated.active && dominated.mayHold(boundHash) && dominated.holds(boundHash, words, stateKey(), relaxed && faultsLeft > 0)) {
      pop();
      return false;
    }
    if (returnAt[i] === Infinity && returnsToEarlierState()) {
      pop();
      return false;
    }
    // An entry that leaves the very state object it found (a read) leaves the state of the
    // configuration before it, which passed the lookahead (or skipped it for the same reason):
    // checking again could only catch an answer that has just entered the window, and skipping
    // only prunes less.
    if (lookahead !== null && newState !== stackState[sp - 1] && !answersStillPossible(lookahead)) {
      pop();
      return false;
    }
    if (pairs.length > 0 && pairCannotJoin()) {
      pop();
      return false;
    }
    if (holders !== null) {
      const blocked = unexplainableHolder(holders);
      if (blocked !== -1) {
        // The answer no continuation can explain is where this configuration is stuck: without
        // noting it, a search pruned at its first step would have no stuck point to name.
        noteStuck(ref[blocked]);
        pop();
        return false;
      }
    }
    explored++;
    entered[kind[i] === REAL ? (returnAt[i] === Infinity ? 1 : 0) : kind[i] === GHOST ? 2 : kind[i] === EXPIRE ? 3 : 4]++;
    pass = 0;
    return true;
  };

  /** The list node the scan is at; for a fault entry resumed after backtracking, its next alternative. */
  let node = next[HEAD];
  let choiceFrom = 0;
  /**
   * Which pass of the scan (passOf): first the entries with a completion bound, then the info ops
   * (in the first pass too when the model has a lookahead, see below), then the deferred ones:
   * second executions and expiries without a completion bound, which stay candidates for the rest
   * of the search. Trying those only when nothing else gets further leaves them out of the way of
   * the operations that must be explained; every child is still tried, so the order changes how
   * soon a linearization is found, never whether it is.
   */
  let pass = 0;
  /**
   * An info op itself is not deferred, though it has no completion bound: its effect is often what a
   * later answer observed, and deferring it to the points where the bounded pass is stuck means
   * first exhausting every order of the bounded ops without it, then inserting each live info op
   * (those that never took effect too) at each of those stuck configurations, where the state is
   * usually wrong already. With appends every such order is its own state, so the cache merges
   * nothing: one kv key with four info appends (three that never took effect) took 928,111 states
   * deferred, 102,859 in call order (Porcupine's order). That key's model has a lookahead, which
   * drops such states early. Without one (a lock), an info op placed as soon as it can be spends an
   * option the rest of the history may need (an acquire that took the lock), and the search then
   * exhausts every continuation before trying without it; in a pass after the bounded entries, the
   * configurations without it fail first and dominate those with it (DominatedConfigurations). On
   * 2,000 generated polling lock histories: median 165 states (193 in call order), worst 8,257 (12,934).
   */
  const deferred = new Uint8Array(n);
  for (let e = 0; e < n; e++) deferred[e] = returnAt[e] === Infinity && kind[e] !== REAL ? 1 : 0;
  const passOf = new Uint8Array(n);
  for (let e = 0; e < n; e++) passOf[e] = deferred[e] === 1 ? 2 : returnAt[e] === Infinity && lookahead === null ? 1 : 0;
  /** Entries not yet placed, per pass. */
  const left = new Int32Array(3);
  for (let e = 0; e < n; e++) left[passOf[e]]++;
  let nextClockReading = deadline === Infinity ? Infinity : CLOCK_EVERY;

  /** Undo entries until one leaves an alternative; false when none does. Every undone configuration failed. */
  const backtrack = (): boolean => {
    for (;;) {
      if (sp === 0) return false;
      const key = stateKey();
      const stored = failed.add(bitsHash, words, key);
      if (dominated.active) dominated.add(boundHash, stored, key);
      const i = pop();
      // A forced entry had no alternative: its configuration failing means the one before failed.
      if (stackForced[sp] === 1) continue;
      if (kind[i] === FAULT) {
        node = 2 * i;
        choiceFrom = stackChoice[sp] + 1;
      } else {
        node = next[2 * i];
        choiceFrom = 0;
      }
      pass = passOf[i];
      return true;
    }
  };

  const faultAlternatives = (entry: number): Alternative<S>[] => {
    const fault = problem.faults[ref[entry]];
    const current = lineage!;
    const alternatives: Alternative<S>[] = [{ state, lineage: current }];
    const seen = new Set<string>([current.hash]);
    for (let l: Lineage<S> | null = current; l !== null; l = l.parent) {
      if (!seen.has(l.hash)) {
        seen.add(l.hash);
        alternatives.push({ state: l.state, lineage: l });
      }
      // The promoted replica keeps the lease's absolute deadline: if the search already let that
      // lease run out, the rolled-back record may be gone too.
      for (const leaseTag of liveLeaseTags(model, l.state)) {
        const expiry = problem.expiryEntryOfTag.get(leaseTag);
        if (expiry === undefined || !isSet(expiry)) continue;
        const expired = model.expire(l.state, leaseTag);
        const hash = model.hashState(expired);
        if (!seen.has(hash)) {
          seen.add(hash);
          alternatives.push({ state: expired, lineage: lineageNode(expired, hash, l) });
        }
      }
      // Going further back would discard the write that made l, which WAIT says this fault cannot lose.
      if (protects(l.guard, fault)) break;
    }
    return alternatives;
  };

  for (;;) {
    if (mandatoryLeft === 0) {
      // What is left (info ops, expiries, faults) always steps successfully, so it can be
      // appended in order of completion bound: the history is linearizable.
      return { verdict: 'ok', explored, cacheComparisons: failed.comparisons, enteredByKind: enteredByKind(), rollbacks: relaxed ? rollbacksOnStack() : undefined, secondExecutions: secondExecutionsOnStack() };
    }
    if (explored > budget) return { verdict: 'unknown', explored, cacheComparisons: failed.comparisons, enteredByKind: enteredByKind(), stuck: stuckPoint(), exhausted: 'states' };
    if (explored >= nextClockReading) {
      nextClockReading = explored + CLOCK_EVERY;
      if (performance.now() > deadline) {
        return { verdict: 'unknown', explored, cacheComparisons: failed.comparisons, enteredByKind: enteredByKind(), stuck: stuckPoint(), exhausted: 'time' };
      }
    }
    let stuck = false;
    if ((node & 1) === 1 && kind[node >> 1] === GHOST) {
      // The ghost's window closed without it taking effect: place it as a no-op. Its taking effect
      // was tried at its call node, so this is the only way left (forced).
      if (enter(node >> 1, state, true, 0, null)) node = next[HEAD];
      else stuck = true;
    } else if ((node & 1) === 1) {
      const i = node >> 1;
      if (pass < 2 && (left[2] > 0 || (pass === 0 && left[1] > 0))) {
        pass = pass === 0 && left[1] > 0 ? 1 : 2;
        node = next[HEAD];
        continue;
      }
      if (kind[i] === REAL) noteStuck(ref[i]);
      stuck = true;
    } else if (passOf[node >> 1] !== pass) {
      node = next[node];
    } else {
      const i = node >> 1;
      const entryKind = kind[i];
      if (entryKind === REAL && twinBefore[i] !== -1 && twinStandsIn(i)) {
        node = next[node];
      } else if (entryKind === GHOST && returnAt[i] === Infinity && !isSet(ref[i])) {
        // An info op's second execution is the op itself again (same input, window and lease tag):
        // it can always be the second of the two to be placed.
        node = next[node];
      } else if (entryKind === REAL) {
        const op = ops[ref[i]];
        const step = model.step(state, op.input, op.id);
        const explained = op.outcome !== 'ok' || model.outputMatches(step.output, op.output);
        // An info op that would change nothing here is better left unplaced (see noEffect).
        const placed = explained && !(op.outcome !== 'ok' && noEffect(step.state)) && enter(i, step.state, false, 0, null);
        node = placed ? next[HEAD] : next[node];
      } else if (entryKind === GHOST) {
        const op = ops[ref[i]];
        const after = model.step(state, op.input, op.id).state;
        node = !noEffect(after) && enter(i, after, false, 0, null) ? next[HEAD] : next[node];
      } else if (entryKind === EXPIRE) {
        if (!isSet(ref[i])) {
          // A lease runs out only after the operation that set it took effect.
          node = next[node];
        } else if (!holdsLease(model, state, tag[i]) && (!relaxed || faultsLeft === 0 || leaseGoneForGood(i))) {
          // A replaced lease never becomes current again (tags are operation ids), so this expiry is
          // a no-op now and forever: placing it first loses no linearization. With a rollback still
          // to come that holds only if no state it could reach holds the lease (leaseGoneForGood).
          if (enter(i, state, true, 0, null)) node = next[HEAD];
          else stuck = true;
        } else {
          node = enter(i, model.expire(state, tag[i]), false, 0, null) ? next[HEAD] : next[node];
        }
      } else {
        const alternatives = faultAlternatives(i);
        let entered = false;
        for (let c = choiceFrom; c < alternatives.length && !entered; c++) {
          entered = enter(i, alternatives[c].state, false, c, alternatives[c].lineage);
        }
        choiceFrom = 0;
        node = entered ? next[HEAD] : next[node];
      }
    }
    if (stuck && !backtrack()) return { verdict: 'illegal', explored, cacheComparisons: failed.comparisons, enteredByKind: enteredByKind(), stuck: stuckPoint() };
  }

  /**
   * Has the run of entries just placed led back to the state of a configuration earlier on this
   * path, without placing anything the history requires? Then every continuation from here also
   * works from there: the run's optional entries (info ops, their second executions, expiries of
   * their leases; no completion bound) are unplaced there, but their return nodes lie at the end of
   * the list and block nothing, and its expiries of other leases are no-ops there that can be placed
   * first. So a shortest linearization (fewest entries other than expiries) never makes such a
   * detour, and pruning it loses nothing. That length is a function of the linearized set, not of
   * the path that reached it, so a configuration that failed because a detour below it was pruned
   * may still be cached: if it led to a shortest linearization, so would the earlier configuration,
   * with fewer entries, and that one is never pruned or cached as failed. Without this, a lease taken and run out by an info acquire
   * is a detour back to "absent", and a dozen identical refused acquires of a polling client
   * multiplied into every subset of such detours (issue 20).
   * Conditions, each needed by that argument:
   * - the run places an op or a second execution (a run of expiries alone may be the no-op expiry
   *   the earlier configuration is forced to place first, so nothing would be shorter);
   * - an op it placed has its expiry placed too, since from the earlier configuration that expiry
   *   could not follow; or its lease is not current at the end of the run, and the expiry is then
   *   a no-op a continuation can leave out (its lease comes back, if at all, only by the op's second
   *   execution, which has an expiry of its own with the same window);
   * - an entry with a completion bound in it is an expiry of a lease not current in the state both
   *   configurations share (a no-op there);
   * - no rollback is still to come: the lineage is part of the configuration then, and the expiries
   *   already placed change what a rollback reaches.
   */
  function returnsToEarlierState(): boolean {
    if (relaxed && faultsLeft > 0) return false;
    let placesAnOp = false;
    for (let s = sp - 1; s >= 0; s--) {
      const e = stackEntry[s];
      if (returnAt[e] !== Infinity && (kind[e] !== EXPIRE || holdsLease(model, state, tag[e]))) return false;
      if (expiryOf[e] !== -1 && !isSet(expiryOf[e]) && holdsLease(model, state, tag[expiryOf[e]])) return false;
      placesAnOp ||= kind[e] !== EXPIRE;
      const earlier = stackState[s];
      if (placesAnOp && (earlier === state || hashAtDepth(s) === currentHash())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The model's lookahead (Model.canStillObserve): each of the earliest answers still to come must be
   * observable from here, directly (only extending entries placed before it) or after a reset still
   * to come that may precede it (called by its completion bound) and leaves a state it can observe.
   * A state that fails this has no completion, so dropping it loses nothing. Without it, a kv key
   * with a dozen overlapping appends between two gets tried every order of them, each its own state
   * (1.8 million states on one key of a synthetic history), and an info append that never took
   * effect was tried at every point before the get that shows it missing.
   */
  function answersStillPossible(entries: Lookahead): boolean {
    const { answers, via } = entries;
    // Start at the earliest unplaced answer, or near it: skipping one only prunes less.
    let a = lookaheadFrom;
    while (a > 0 && !isSet(answers[a - 1])) a--;
    while (a < answers.length && isSet(answers[a])) a++;
    lookaheadFrom = a;
    for (let checked = 0; a < answers.length && checked < LOOKAHEAD_ANSWERS; a++) {
      const e = answers[a];
      if (isSet(e)) continue;
      checked++;
      const op = ops[ref[e]];
      if (model.canStillObserve!(state, op.input, op.output)) continue;
      const resets = via[a];
      let viaReset = false;
      for (let r = 0; r < resets.length && !viaReset; r++) viaReset = !isSet(resets[r]);
      if (!viaReset) return false;
    }
    return true;
  }

  /**
   * The model's holder lookahead (Model.requires / grants / holdsIdentity): every answer still to
   * come that shows a holder current needs that holder current now, some operation still to
   * place that can make it so, or, while a rollback is to come, a state of the lineage to restore.
   * Without it, a holder's lease run out too early left the polls answered 0 after it to be
   * explained by every order of the other clients' indeterminate acquires and extends, each its
   * own state, before the release that needs the first holder failed (a generated polling history
   * ran past 500,000 states).
   */
  function unexplainableHolder(entries: Holders): number {
    const { answers, needs, grantersLeft, identities, leaving } = entries;
    // The holder that must be gone before an answer requiring none or another (see canEnd).
    const holder = leaving !== null ? model.holderOf!(state) : undefined;
    for (let a = 0; a < answers.length; a++) {
      const e = answers[a];
      if (isSet(e)) continue;
      if (model.holdsIdentity!(state, identities[needs[a]])) continue;
      const rollback = rollbackBy(returnAt[e]);
      if (!granterBy(entries, needs[a], returnAt[e]) && (!rollback || !onLineage(identities[needs[a]]))) return e;
      if (holder !== undefined && !rollback && !canEnd(leaving!, holder, e)) return e;
    }
    if (holder !== undefined) {
      // The earliest unplaced answer requiring no holder is the one with the least time to end this hold.
      for (const e of leaving!.vacant) {
        if (isSet(e)) continue;
        if (!rollbackBy(returnAt[e]) && !canEnd(leaving!, holder, e)) return e;
        break;
      }
    }
    return -1;
  }

  /**
   * Has some pair (HoldPair) its first answer still to place and every candidate placed already?
   * Or only one rollback left, the pair's only candidate, while the first answer needs a holder
   * that is not current and that no operation called by its completion bound can make current: the
   * one rollback would have to come before the first, to restore that holder, and after it, to end
   * the hold (lossy seed 11478: every placement of the second executions around such a pair).
   */
  function pairCannotJoin(): boolean {
    for (const { first, second, candidates, needs, other } of pairs) {
      if (isSet(first)) continue;
      if (other !== undefined) {
        if (!isSet(second) && allSet(candidates) && allSet(other)) return true;
        continue;
      }
      let open = 0;
      let onlyRollbacks = true;
      for (let c = 0; c < candidates.length; c++) {
        if (isSet(candidates[c])) continue;
        open++;
        if (kind[candidates[c]] !== FAULT) onlyRollbacks = false;
      }
      if (open === 0) return true;
      if (onlyRollbacks && faultsLeft === 1 && needs !== -1 && !model.holdsIdentity!(state, holders!.identities[needs]) && !granterBy(holders!, needs, returnAt[first])) {
        return true;
      }
    }
    return false;
  }

  /**
   * Is an entry that may make this holder current still to place, and called by `by`? One called
   * later cannot precede the answer whose completion bound `by` is: counting it let a holder's lease
   * run out before its release answered 1 while a later acquire of the same token was left, and
   * the polls after it were tried in every order before the release failed (lossy seed 3697).
   */
  function granterBy(entries: Holders, holder: number, by: number): boolean {
    if (entries.grantersLeft[holder] === 0) return false;
    for (const g of entries.granters[holder]) {
      if (callAt[g] > by) return false;
      if (!isSet(g)) return true;
    }
    return false;
  }

  function allSet(entries: Int32Array): boolean {
    for (let c = 0; c < entries.length; c++) if (!isSet(entries[c])) return false;
    return true;
  }

  /** Relaxed mode: can a rollback still to come be placed before an entry whose completion bound is `by`? */
  function rollbackBy(by: number): boolean {
    if (!relaxed || faultsLeft === 0) return false;
    for (const f of faultEntries) if (!isSet(f) && callAt[f] <= by) return true;
    return false;
  }

  /**
   * Can the current holder's hold end before answer e must take effect? Only a step of an operation
   * that may end it (Model.mayEnd) or the expiry of a lease the state holds changes a state with a
   * holder, so one of those, still to place and called by e's completion bound, must come first.
   */
  function canEnd(leaving: Leaving, holder: string, e: number): boolean {
    const by = returnAt[e];
    for (const v of leaving.enders.get(holder) ?? []) {
      if (callAt[v] > by) break;
      if (v !== e && !isSet(v)) return true;
    }
    for (const leaseTag of liveLeaseTags(model, state)) {
      for (const x of leaving.expiriesOfTag.get(leaseTag) ?? []) if (!isSet(x) && callAt[x] <= by) return true;
    }
    return false;
  }

  /** Does some state of the lineage (which a rollback still to come may restore) have this holder? */
  function onLineage(identity: string): boolean {
    for (let l: Lineage<S> | null = lineage; l !== null; l = l.parent) if (model.holdsIdentity!(l.state, identity)) return true;
    return false;
  }

  /**
   * Identical info ops (same input, no completion bound, both with or both without a second
   * execution) differ only in when they may start and in their lease tag. If an earlier one is
   * unplaced, and this one's lease could already run out here, every linearization that places this
   * one here also works with the two swapped from here on: the earlier one can go wherever this
   * one can, and this one wherever the other went, its lease's expiry included, since all of its
   * windows are open already. Lease tags are identities, which models only compare, so the swap
   * gives the same states up to the tags' names and the same answers. So only the earliest unplaced
   * one of such a set is tried: a polling client's dozen refused acquires are one choice, not twelve.
   */
  function twinStandsIn(b: number): boolean {
    let a = twinBefore[b];
    while (a !== -1 && isSet(a)) a = twinBefore[a];
    if (a === -1) return false;
    const expiry = expiryOf[b];
    return expiry === -1 || callAt[expiry] <= frontier();
  }

  /**
   * Relaxed mode, a rollback still to come: can lease tag[x] never be live again on any continuation?
   * Then expiry x is a no-op now and forever (it only matters to a rollback reaching a state that
   * holds its lease, and there is none), so placing it first loses nothing, as in strict mode.
   * A lease becomes live only by a step of the operation that sets it (its tag is that operation's
   * id) or of that operation's second execution, or by a rollback to a state of the lineage that
   * holds it. So: both executions placed (or the operation has no second one), and no state of the
   * lineage holds it. Without this, in a lossy re-check every subset of the expiries of a polling
   * client's refused acquires (leases that never existed) was its own configuration: 499,937 of
   * 500,000 states on one generated history.
   */
  function leaseGoneForGood(x: number): boolean {
    const setter = ref[x];
    const other = kind[setter] === GHOST ? ref[setter] : ghostOf[setter];
    if (other !== -1 && !isSet(other)) return false;
    for (let l: Lineage<S> | null = lineage; l !== null; l = l.parent) if (holdsLease(model, l.state, tag[x])) return false;
    return true;
  }

  /** The time of the first return node in the list: no entry called later can be placed yet. */
  function frontier(): number {
    let at = next[HEAD];
    while (at !== -1 && (at & 1) === 0) at = next[at];
    return at === -1 ? Infinity : returnAt[at >> 1];
  }

  /**
   * An optional entry (an info op, a ghost) that would leave the state as it is: placing it now is
   * never needed, since leaving it out gives every later entry the same state and keeps the option of
   * placing it later, where it may matter. Without this, each such entry doubles the configurations
   * (placed or not, same state): a few long-lived info ops around a lossy fault used to exhaust the budget.
   */
  function noEffect(after: S): boolean {
    return after === state || model.hashState(after) === currentHash();
  }

  /** No order gets past op (index into ops) from the current configuration: keep the deepest such point. */
  function noteStuck(op: number): void {
    if (realDepth > bestDepth) {
      bestDepth = realDepth;
      best = { prefix: realPrefix(), op, state };
    }
    rememberStuckState(op);
  }

  function rememberStuckState(op: number): void {
    let seen = stuckStates.get(op);
    if (seen === undefined) stuckStates.set(op, (seen = { states: [], hashes: new Set() }));
    if (seen.states.length >= STATES_PER_OP) return;
    const hash = currentHash();
    if (seen.hashes.has(hash)) return;
    seen.hashes.add(hash);
    seen.states.push(state);
  }

  function realPrefix(): number[] {
    const prefix: number[] = [];
    for (let s = 0; s < sp; s++) if (kind[stackEntry[s]] === REAL) prefix.push(ref[stackEntry[s]]);
    return prefix;
  }

  /** A ghost entered unforced took effect (a no-effect ghost is never entered by choice: noEffect). */
  function secondExecutionsOnStack(): number[] {
    const placed: number[] = [];
    for (let s = 0; s < sp; s++) if (kind[stackEntry[s]] === GHOST && stackForced[s] === 0) placed.push(ref[stackEntry[s]]);
    return placed;
  }

  function rollbacksOnStack(): Rollback<S>[] {
    const rollbacks: Rollback<S>[] = [];
    const lineageAfter = (s: number): Lineage<S> => (s + 1 < sp ? stackLineage[s + 1]! : lineage!);
    const chain = (l: Lineage<S> | null): Set<Lineage<S>> => {
      const nodes = new Set<Lineage<S>>();
      for (; l !== null; l = l.parent) nodes.add(l);
      return nodes;
    };
    for (let s = 0; s < sp; s++) {
      if (kind[stackEntry[s]] === FAULT && stackChoice[s] > 0) {
        // Discarded: the operations whose state was on the live branch just before the rollback and is not after it.
        const before = chain(stackLineage[s]!);
        const after = chain(lineageAfter(s));
        const discarded: number[] = [];
        for (let t = 0; t < s; t++) {
          const made = lineageAfter(t);
          const k = kind[stackEntry[t]];
          const op = ref[stackEntry[t]];
          // An operation's second execution discarded is its effect discarded too.
          if ((k === REAL || k === GHOST) && stackLineage[t] !== made && before.has(made) && !after.has(made) && !discarded.includes(op)) discarded.push(op);
        }
        rollbacks.push({ fault: ref[stackEntry[s]], from: stackState[s], to: s + 1 < sp ? stackState[s + 1] : state, discarded });
      }
    }
    return rollbacks;
  }
}

/**
 * Configurations known to fail: (linearized set, state key). Keyed first by the set's Zobrist hash,
 * then by the state key, so that a lookup compares only sets that also share the state: with a
 * model whose every order gives a different state (appends), one set may fail in thousands of
 * states, and a bucket per set made each lookup compare long state strings one by one (Porcupine
 * fixed the same by folding the state's hash into its cache key). The exact set is compared too,
 * so a hash collision can never prune a live configuration.
 */
class FailedConfigurations {
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
class DominatedConfigurations {
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

/** Op entry -> the entry of its second execution, or -1. */
function ghostOfEntry(problem: KeyProblem<unknown, unknown, unknown>): Int32Array {
  const ghostOf = new Int32Array(problem.n).fill(-1);
  for (let e = 0; e < problem.n; e++) if (problem.kind[e] === GHOST) ghostOf[problem.ref[e]] = e;
  return ghostOf;
}

function sameBits(a: Uint16Array, b: Uint16Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Lookahead {
  /** Ok operations with a completion bound whose answer reads the state (Model.observes), by completion bound. */
  readonly answers: readonly number[];
  /**
   * Per answer, the entries that may place a state not extending the one before (Model.resets),
   * called by its completion bound (so they may precede it), that leave a state it can observe.
   */
  readonly via: readonly (readonly number[])[];
}

/**
 * The earliest unplaced answers the lookahead checks at each step: the ones a wrong order or an info
 * op that never took effect runs into first. Checking fewer only prunes less; checking all made
 * each step cost as much as the key's length. Porcupine's kv c50-ok, gets only: 5,774 states with
 * 8, 16 or 32 (12,046 when every answer took a place in a window of 32).
 */
const LOOKAHEAD_ANSWERS = 16;

interface Holders {
  /** Ok operations whose answer requires a holder (Model.requires). */
  readonly answers: readonly number[];
  /** Per answer, the index of the holder it requires in `identities`. */
  readonly needs: readonly number[];
  /** Per entry, the index of the holder it may make current (Model.grants), or -1. */
  readonly grants: Int32Array;
  /** Per holder, the entries not yet placed that may make it current. */
  readonly grantersLeft: Int32Array;
  /** Per holder, the entries that may make it current, by call. */
  readonly granters: readonly (readonly number[])[];
  readonly identities: readonly string[];
  /** Null when the model does not say which holder a state has and what may end a hold. */
  readonly leaving: Leaving | null;
}

interface Leaving {
  /** Ok operations whose answer requires no holder (Model.requiresVacant), by completion bound. */
  readonly vacant: readonly number[];
  /** Holder -> the op and second-execution entries that may end its hold (Model.mayEnd), by call. */
  readonly enders: ReadonlyMap<string, readonly number[]>;
  /** Lease tag -> its expiry entries (the operation's, and its second execution's). */
  readonly expiriesOfTag: ReadonlyMap<number, readonly number[]>;
}

/** Null when the model has no holder lookahead or no answer requires a holder. */
function holderEntries<S, I, O>(problem: KeyProblem<S, I, O>): Holders | null {
  const { model, n, kind, ref, ops, returnAt } = problem;
  if (model.requires === undefined || model.grants === undefined || model.holdsIdentity === undefined) return null;
  const index = new Map<string, number>();
  const identity = (name: string): number => {
    let at = index.get(name);
    if (at === undefined) index.set(name, (at = index.size));
    return at;
  };
  const answers: number[] = [];
  const needs: number[] = [];
  const grants = new Int32Array(n).fill(-1);
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL && kind[e] !== GHOST) continue;
    const op = ops[ref[e]];
    const answered = kind[e] === REAL && returnAt[e] !== Infinity && op.outcome === 'ok';
    // A second execution's answer was never seen, nor an indeterminate op's.
    const granted = model.grants(op.input, answered ? op.output : undefined);
    if (granted !== undefined) grants[e] = identity(granted);
    const required = answered ? model.requires(op.input, op.output) : undefined;
    if (required !== undefined) {
      answers.push(e);
      needs.push(identity(required));
    }
  }
  const leaving = leavingEntries(problem);
  if (answers.length === 0 && (leaving === null || leaving.vacant.length === 0)) return null;
  const grantersLeft = new Int32Array(index.size);
  const granters: number[][] = Array.from({ length: index.size }, () => []);
  for (let e = 0; e < n; e++) {
    if (grants[e] === -1) continue;
    grantersLeft[grants[e]]++;
    granters[grants[e]].push(e);
  }
  for (const list of granters) list.sort((a, b) => problem.callAt[a] - problem.callAt[b]);
  return { answers, needs, grants, grantersLeft, granters, identities: [...index.keys()], leaving };
}

/**
 * An answer that leaves holder H whatever came before it (Model.answerLeaves), and the earliest
 * answer invoked after it completed that requires no holder or another: H's hold must end between
 * them. Only an operation that may end it (Model.mayEnd), the expiry of a lease H holds then (the
 * first's own, or one such an operation sets) or a rollback can end it, and each must be placed
 * after the first (its completion bound not before the first's invocation) and before the second
 * (invoked by the second's completion bound). Those are the pair's candidates; once every one is
 * placed while the first is not, no completion exists, whatever else was placed: without this, a
 * search tried every order of the operations before such a pair (issue 20: past 500,000 states).
 * The second answer with the earliest completion bound has the fewest candidates, so one per first.
 */
interface HoldPair<S> {
  readonly first: number;
  readonly second: number;
  /** The state the first leaves. */
  readonly state: S;
  readonly candidates: Int32Array;
  /** The holder (index into Holders.identities) the first answer requires current, or -1. */
  readonly needs: number;
  /**
   * Answers whose windows overlap, so either may come first: the candidates for the second one
   * first (what could end its hold before the first). Such a pair cannot join once both answers are
   * unplaced and both lists are placed already.
   */
  readonly other?: Int32Array;
}

function holdPairs<S, I, O>(problem: KeyProblem<S, I, O>, holders: Holders, expiryOf: Int32Array): HoldPair<S>[] {
  const { model, n, kind, ref, ops, callAt, returnAt } = problem;
  const { leaving, answers, needs, identities } = holders;
  if (leaving === null || model.answerLeaves === undefined) return [];
  const faults: number[] = [];
  for (let e = 0; e < n; e++) if (kind[e] === FAULT) faults.push(e);
  const needOf = new Map<number, number>(answers.map((e, a) => [e, needs[a]]));
  const vacant = new Set(leaving.vacant);
  /** Answer -> the holder it shows was not current (Model.excludes). */
  const excluded = new Map<number, string>();
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] === Infinity || ops[ref[e]].outcome !== 'ok') continue;
    const not = model.excludes?.(ops[ref[e]].input, ops[ref[e]].output);
    if (not !== undefined) excluded.set(e, not);
  }
  /** Does answer e require the hold of `holder` gone: no holder, another, or anyone but it? */
  const requiresOther = (e: number, holder: string): boolean =>
    vacant.has(e) || (needOf.has(e) && identities[needOf.get(e)!] !== holder) || excluded.get(e) === holder;
  /** What could end the hold `first` leaves after it and before `second` (see HoldPair). */
  const candidatesBetween = (first: number, second: number, left: S, holder: string): Int32Array => {
    const by = returnAt[second];
    const between = (e: number): boolean => e !== first && e !== second && !(returnAt[e] < callAt[first]) && callAt[e] <= by;
    const candidates: number[] = [];
    for (const leaseTag of liveLeaseTags(model, left)) {
      for (const x of leaving.expiriesOfTag.get(leaseTag) ?? []) if (between(x)) candidates.push(x);
    }
    for (const v of leaving.enders.get(holder) ?? []) {
      if (!between(v)) continue;
      // One that sets a positive lease ends the hold only by that lease running out: its expiry is
      // the candidate. One that sets none, or one whose window opens by its own call, may end it at once.
      if (expiryOf[v] === -1 || callAt[expiryOf[v]] <= callAt[v]) candidates.push(v);
      else if (between(expiryOf[v])) candidates.push(expiryOf[v]);
    }
    for (const f of faults) if (between(f)) candidates.push(f);
    return Int32Array.from(candidates);
  };
  const leavers: { e: number; left: S; holder: string }[] = [];
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] === Infinity || ops[ref[e]].outcome !== 'ok') continue;
    const op = ops[ref[e]];
    const left = model.answerLeaves(op.input, op.output, op.id);
    const holder = left === undefined ? undefined : model.holderOf!(left);
    if (holder !== undefined) leavers.push({ e, left: left!, holder });
  }
  const pairs: HoldPair<S>[] = [];
  for (const { e: first, left, holder } of leavers) {
    let second = -1;
    const consider = (e: number) => {
      if (returnAt[first] < callAt[e] && (second === -1 || returnAt[e] < returnAt[second])) second = e;
    };
    for (const e of leaving.vacant) consider(e);
    for (let a = 0; a < answers.length; a++) if (identities[needs[a]] !== holder) consider(answers[a]);
    for (const [e, not] of excluded) if (not === holder) consider(e);
    if (second === -1) continue;
    pairs.push({ first, second, state: left, candidates: candidatesBetween(first, second, left, holder), needs: needOf.get(first) ?? -1 });
  }
  // Two such answers whose windows overlap, each requiring the other's hold gone: whichever comes
  // first, the other needs a candidate between them (two acquires answered 1 while neither lease
  // could run out in time: lossy seed 10992's strict search, 73,805 states).
  for (let x = 0; x < leavers.length; x++) {
    for (let y = x + 1; y < leavers.length; y++) {
      const a = leavers[x];
      const b = leavers[y];
      if (returnAt[a.e] < callAt[b.e] || returnAt[b.e] < callAt[a.e]) continue;
      if (!requiresOther(b.e, a.holder) || !requiresOther(a.e, b.holder)) continue;
      const other = candidatesBetween(b.e, a.e, b.left, b.holder);
      pairs.push({ first: a.e, second: b.e, state: a.left, candidates: candidatesBetween(a.e, b.e, a.left, a.holder), needs: -1, other });
    }
  }
  return pairs;
}

function leavingEntries<S, I, O>(problem: KeyProblem<S, I, O>): Leaving | null {
  const { model, n, kind, ref, ops, tag, callAt, returnAt } = problem;
  if (model.holderOf === undefined || model.requiresVacant === undefined || model.mayEnd === undefined) return null;
  const vacant: number[] = [];
  const enders = new Map<string, number[]>();
  const expiriesOfTag = new Map<number, number[]>();
  for (let e = 0; e < n; e++) {
    if (kind[e] === EXPIRE) {
      const list = expiriesOfTag.get(tag[e]);
      if (list === undefined) expiriesOfTag.set(tag[e], [e]);
      else list.push(e);
      continue;
    }
    if (kind[e] !== REAL && kind[e] !== GHOST) continue;
    const op = ops[ref[e]];
    if (kind[e] === REAL && returnAt[e] !== Infinity && op.outcome === 'ok' && model.requiresVacant(op.input, op.output)) vacant.push(e);
    const ends = model.mayEnd(op.input);
    if (ends === undefined) continue;
    const list = enders.get(ends);
    if (list === undefined) enders.set(ends, [e]);
    else list.push(e);
  }
  vacant.sort((a, b) => returnAt[a] - returnAt[b]);
  for (const list of enders.values()) list.sort((a, b) => callAt[a] - callAt[b]);
  return { vacant, enders, expiriesOfTag };
}

/** Null when the model has no lookahead, or when expiries or rollbacks could change the state otherwise. */
function lookaheadEntries<S, I, O>(problem: KeyProblem<S, I, O>): Lookahead | null {
  const { model, n, kind, ref, ops, callAt, returnAt } = problem;
  if (model.resets === undefined || model.canStillObserve === undefined) return null;
  const resets: number[] = [];
  const answers: number[] = [];
  for (let e = 0; e < n; e++) {
    if (kind[e] === EXPIRE || kind[e] === FAULT) return null;
    if (model.resets(ops[ref[e]].input)) resets.push(e);
    const op = ops[ref[e]];
    if (kind[e] === REAL && returnAt[e] !== Infinity && op.outcome === 'ok' && (model.observes?.(op.input) ?? true)) answers.push(e);
  }
  answers.sort((a, b) => returnAt[a] - returnAt[b]);
  // A reset leaves the same state whatever the state before (Model.resets), so from init will do.
  const left = resets.map((reset) => model.step(model.init(), ops[ref[reset]].input, ops[ref[reset]].id).state);
  const via = answers.map((answer) => {
    const op = ops[ref[answer]];
    return resets.filter((reset, r) => callAt[reset] <= returnAt[answer] && model.canStillObserve!(left[r], op.input, op.output));
  });
  return { answers, via };
}

/**
 * Info op entry -> the info op just before it (by invocation) with the same input and the same
 * second-execution status, or -1. Ops with a completion bound have none: their answers differ.
 */
function earlierTwins(problem: KeyProblem<unknown, unknown, unknown>): Int32Array {
  const { n, kind, ref, ops, callAt, returnAt } = problem;
  const hasGhost = new Uint8Array(n);
  for (let e = 0; e < n; e++) if (kind[e] === GHOST) hasGhost[ref[e]] = 1;
  const sets = new Map<string, number[]>();
  for (let e = 0; e < n; e++) {
    if (kind[e] !== REAL || returnAt[e] !== Infinity) continue;
    const like = `${hasGhost[e]}${JSON.stringify(ops[ref[e]].input)}`;
    const set = sets.get(like);
    if (set === undefined) sets.set(like, [e]);
    else set.push(e);
  }
  const before = new Int32Array(n).fill(-1);
  for (const set of sets.values()) {
    set.sort((a, b) => callAt[a] - callAt[b] || a - b);
    for (let k = 1; k < set.length; k++) before[set[k]] = set[k - 1];
  }
  return before;
}

/** Fixed pseudo-random 32-bit keys (xorshift32), one per entry: the same problem hashes the same way. */
function zobristKeys(n: number): Int32Array {
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
