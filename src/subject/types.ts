import type { Capabilities } from './capability-types.ts';
import type { Receipt } from '../plan/durability.ts';

/**
 * The implementation under test, behind one interface whatever it is made of:
 * the reference client over Lua scripts, a JS/TS module, or a program speaking the process protocol.
 * The runner calls `invoke` with a model input and reports whatever comes back; it never judges.
 */
export interface Subject<I = unknown, O = unknown> {
  /** Human name for reports: "lua:lua/idempotency (reference client)". */
  readonly name: string;
  /**
   * Run one operation on one logical key. Rejects on error; the runner classifies the error.
   * `receipt`, when given, is filled with what the implementation says about the answer beyond it
   * (with `--durability`: the replicas WAIT reported); an implementation that says nothing leaves it empty.
   */
  invoke(key: string, input: I, receipt?: Receipt): Promise<O>;
  /** The Redis key a logical key lives under, when known: lets the nemesis aim faults at its shard
   *  (with a declared key mapping, the implementation's own main key). */
  redisKey?(key: string): string;
  /**
   * Present only when the implementation declared where it keeps its state (a key mapping): every
   * Redis key of a logical key. Post-run probes read exactly these, and look for no other name.
   */
  storedKeys?(key: string): readonly string[];
  /** The declared key mapping, in words (reports). */
  readonly keyMapping?: string;
  /** What the implementation declared it supports and how it answers (absent: every operation, exactly). */
  readonly capabilities?: Capabilities;
  /** How a logical client's clock offset (the fault client-clock) reaches the implementation. Absent: as `reach: 'nothing'`. */
  readonly clientClock?: ClientClockDoor;
  /** Release connections and child processes. */
  close(): Promise<void>;
}

/** A door's reach into the implementation's own reads of the wall clock, for the client-clock fault. */
export interface ClientClockDoor {
  /** In words, for the certificate: what the offset moves, or why nothing ("the lua door's client sends no time"). */
  readonly reach: string;
  /** Run this client's calls under `offsetMs` from now on (0: the true clock). Absent: no offset reaches the implementation. */
  set?(offsetMs: number): void;
}

/** What an implementation reports with an answer (plan vocabulary: the process protocol fills it too). */
export type { Receipt } from '../plan/durability.ts';
