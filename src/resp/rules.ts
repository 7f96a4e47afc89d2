/**
 * Command-aware fault rules: which commands a RESP point catches, and what it does to them.
 */
import { isDataCommand } from './commands.ts';

/** delay-request: hold the command before Redis sees it. delay-reply: let it run, hold its reply.
 *  lose-reply: let it run, then cut the connection before its reply reaches the client.
 *  refuse: never send it; answer the client BUSY in its turn, as Redis does while a script runs. */
export type CommandAction = 'delay-request' | 'delay-reply' | 'lose-reply' | 'refuse';

export interface CommandRule {
  readonly action: CommandAction;
  /** Names as ruleName() gives them (upper case; EVAL and EVALSHA are both EVALSHA); ANY_DATA_COMMAND: every data command. */
  readonly names: readonly string[];
  /** Delays only: the side to hold for the command caught, by its name (else `action`'s). */
  readonly sideFor?: (name: string) => 'delay-request' | 'delay-reply';
  /** Only commands whose first key hashes to this slot. */
  readonly slot?: number;
  /** Never commands whose first key hashes to this slot (a run's race key, left to the race's own hold). */
  readonly exceptSlot?: number;
  /** Only commands on this connection (ids count from 1 over all the client links of a cluster). */
  readonly connection?: number;
  /** Delays only: how long the caught command, and everything behind it on its connection, is held. */
  readonly holdMs?: number;
  /** Delays only: hold instead until the caught command's key has run out of TTL and another
   *  connection's command on that key has since been answered, then this many ms more; never longer
   *  than holdMs past the TTL nor MAX_TTL_HOLD_MS in all (holdMs alone for a key without a TTL). Needs `ttlOf`. */
  readonly pastExpiryMs?: number;
  /** Delays only: hold instead until another connection's command on the caught command's key has
   *  been answered, then this many ms more; never longer than holdMs (a race for a key's last place:
   *  the command that read it waits until a contender has been answered, whatever the key's TTL). */
  readonly pastTouchMs?: number;
  /** The remaining TTL of a key on a node, in ms (PTTL: -2 absent, -1 no TTL). */
  readonly ttlOf?: (node: string, key: Buffer) => Promise<number>;
  /** Most commands caught; then the rule does nothing more. */
  readonly limit: number;
}

/** The name that makes a rule catch any data command (never connection or cluster control). */
export const ANY_DATA_COMMAND = '*';

/** A command a rule caught. */
export interface CaughtCommand {
  /** Node whose client link carried it ("n2"). */
  readonly node: string;
  readonly connection: number;
  readonly name: string;
  /** Its first key (latin1), when it has one. */
  readonly key?: string;
  /** performance.now() when it was caught. */
  readonly at: number;
}

export function validateRule(rule: CommandRule): CommandRule {
  const bad = (why: string) => new RangeError(`command rule: ${why}`);
  if (!['delay-request', 'delay-reply', 'lose-reply', 'refuse'].includes(rule.action))
    throw bad(`action must be delay-request, delay-reply, lose-reply or refuse, got '${rule.action}'`);
  if (
    !Array.isArray(rule.names) ||
    rule.names.length === 0 ||
    rule.names.some((n) => typeof n !== 'string' || n !== n.toUpperCase() || n === '')
  ) {
    throw bad('names must be a non-empty list of upper-case command names');
  }
  for (const [name, value] of [
    ['slot', rule.slot],
    ['exceptSlot', rule.exceptSlot],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value < 16384))
      throw bad(`${name} must be an integer in [0, 16383], got ${value}`);
  }
  if (rule.connection !== undefined && !(Number.isInteger(rule.connection) && rule.connection >= 1))
    throw bad(`connection must be a positive integer, got ${rule.connection}`);
  if (!(Number.isInteger(rule.limit) && rule.limit >= 1))
    throw bad(`limit must be a positive integer, got ${rule.limit}`);
  const delays = rule.action === 'delay-request' || rule.action === 'delay-reply';
  if (delays && !(Number.isInteger(rule.holdMs) && rule.holdMs! >= 1 && rule.holdMs! <= 60_000))
    throw bad(`holdMs must be an integer in [1, 60000] for ${rule.action}, got ${rule.holdMs}`);
  if (!delays && rule.holdMs !== undefined) throw bad('holdMs is for delays only');
  if (rule.sideFor !== undefined && !delays) throw bad('sideFor is for delays only');
  if (rule.pastExpiryMs !== undefined) {
    if (!delays) throw bad('pastExpiryMs is for delays only');
    if (!(Number.isInteger(rule.pastExpiryMs) && rule.pastExpiryMs >= 0))
      throw bad(`pastExpiryMs must be a non-negative integer, got ${rule.pastExpiryMs}`);
    if (typeof rule.ttlOf !== 'function') throw bad('pastExpiryMs needs ttlOf');
  }
  if (rule.pastTouchMs !== undefined) {
    if (!delays) throw bad('pastTouchMs is for delays only');
    if (!(Number.isInteger(rule.pastTouchMs) && rule.pastTouchMs >= 0))
      throw bad(`pastTouchMs must be a non-negative integer, got ${rule.pastTouchMs}`);
    if (rule.pastExpiryMs !== undefined) throw bad('pastTouchMs and pastExpiryMs are two ways to end a hold: give one');
  }
  return rule;
}

/** Resolves with the instant (performance.now()) another connection's command on `key` was answered
 *  at or after `after`, or with `deadline` if none was by then. */
export type TouchWatch = (key: string, after: number, connection: number, deadline: number) => Promise<number>;

/** Redis keeps deadlines in whole milliseconds: a key may outlive its PTTL by that much. */
const EXPIRY_ROUNDING_MS = 2;

/** Longest hold that waits for a key's TTL: under the 2 s the harness's clients give a command. */
export const MAX_TTL_HOLD_MS = 1_500;

/** What a connection does with a command it caught; `done` once the hold is over, the cut made, or the connection gone. */
export interface Catch {
  readonly action: CommandAction;
  /** Delays: when the hold ends (performance.now() ms), known now or once the key's TTL has been read. */
  readonly until: number | Promise<number>;
  done(): void;
}

/** One armed rule, shared by the RESP points of every node (its limit counts over all of them). */
export class ArmedRule {
  readonly caught: CaughtCommand[] = [];
  private armed = true;
  private readonly names: ReadonlySet<string>;
  private readonly pending = new Set<Promise<void>>();
  private filled!: () => void;
  /** Resolves once the rule has caught its limit. */
  readonly full = new Promise<void>((resolve) => (this.filled = resolve));

  constructor(readonly rule: CommandRule) {
    this.names = new Set(validateRule(rule).names);
  }

  /** A catch when this command is one the rule wants, counted against its limit. */
  tryCatch(
    node: string,
    connection: number,
    name: string,
    slot: () => number | undefined,
    key: () => Buffer | undefined,
    touched: TouchWatch,
  ): Catch | undefined {
    if (!this.armed || this.caught.length >= this.rule.limit) return undefined;
    if (!this.names.has(name) && !(this.names.has(ANY_DATA_COMMAND) && isDataCommand(name))) return undefined;
    if (this.rule.connection !== undefined && this.rule.connection !== connection) return undefined;
    if (this.rule.slot !== undefined && slot() !== this.rule.slot) return undefined;
    if (this.rule.exceptSlot !== undefined && slot() === this.rule.exceptSlot) return undefined;
    const at = performance.now();
    const k = key();
    this.caught.push({ node, connection, name, key: k?.toString('latin1'), at });
    if (this.caught.length === this.rule.limit) this.filled();
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    this.pending.add(settled);
    return {
      action: this.rule.sideFor?.(name) ?? this.rule.action,
      until: this.holdEnd(node, connection, k, at, touched),
      done,
    };
  }

  /** A fixed hold, or one that ends once another client has touched the key (after its TTL ran out, with pastExpiryMs). */
  private holdEnd(
    node: string,
    connection: number,
    key: Buffer | undefined,
    at: number,
    touched: TouchWatch,
  ): number | Promise<number> {
    const fixed = at + (this.rule.holdMs ?? 0);
    const { pastExpiryMs, pastTouchMs, ttlOf } = this.rule;
    if (pastTouchMs !== undefined && key)
      return touched(key.toString('latin1'), at, connection, fixed).then((touch) =>
        Math.min(fixed, touch + pastTouchMs),
      );
    if (pastExpiryMs === undefined || !ttlOf || !key) return fixed;
    return ttlOf(node, key).then(
      async (pttl) => {
        if (pttl < 0) return fixed;
        // PTTL was measured somewhere between its send and now: the key is gone by now + pttl (plus
        // Redis's millisecond rounding), not by at + pttl, which a slow round trip puts before the
        // real deadline, so a touch in between finds the key still held and ends the hold too soon.
        const expiry = performance.now() + pttl + EXPIRY_ROUNDING_MS;
        const latest = at + Math.min(MAX_TTL_HOLD_MS, pttl + (this.rule.holdMs ?? 0));
        const touch = await touched(key.toString('latin1'), expiry, connection, latest);
        return Math.min(latest, touch + pastExpiryMs);
      },
      () => fixed,
    );
  }

  /** Catch nothing more; what was caught plays out. */
  disarm(): void {
    this.armed = false;
  }

  get active(): boolean {
    return this.armed && this.caught.length < this.rule.limit;
  }

  /** Resolves once every caught command's hold is over, its cut made, or its connection gone. */
  settled(): Promise<void> {
    return Promise.all(this.pending).then(() => undefined);
  }
}
