/**
 * Answers as the history records them, given what the implementation declared: raw at the exact
 * level (as before capabilities existed), else an envelope naming the operation and the level it
 * answered at (src/patterns/levels.ts), with the text of any holder handle. Also keeps each
 * holder's handle, so that later calls of that holder receive it.
 */
import { inspect } from 'node:util';
import type { Capabilities } from '../patterns/capabilities.ts';
import { EXACT, isLeveledAnswer, voidLevel, type LeveledAnswer } from '../patterns/levels.ts';
import type { Receipt } from '../plan/durability.ts';
import { RefusedError, refusalOf } from '../plan/refusal.ts';
import type { AnyPattern } from '../patterns/types.ts';

/** Longest handle text kept in a history. */
const HANDLE_TEXT = 80;

/** A handle as the history shows it: opaque, never read back (the live value stays with the subject). */
function handleText(handle: unknown): string {
  const text = typeof handle === 'string' ? handle : inspect(handle, { depth: 0, breakLength: Infinity });
  return text.length > HANDLE_TEXT ? `${text.slice(0, HANDLE_TEXT)}...` : text;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Holders' handles by key and holder, shared by every logical client of one implementation: the
 * holder argument (the token) is the model's name of a holder, the handle the implementation's name
 * of the same holder, so a call naming holder X (a stray release with another client's token
 * included) carries X's handle, and is judged as the model judges a call by X. What is not known
 * is shared too: a stray call naming X while X's acquire is in flight, or lost, is not made.
 */
export class HandleTable {
  readonly handles = new Map<string, unknown>();
  /** Holders whose handle-giving operation lost its answer (or may have run unseen), until one answers with a handle. */
  readonly lost = new Set<string>();
  /** Holders with a handle-giving operation still in flight (the runner may have stopped waiting for it). */
  readonly inFlight = new Map<string, number>();
}

/** Does any operation of these capabilities hand out a holder handle? */
export const givesHandles = (capabilities: Capabilities): boolean =>
  Object.values(capabilities.operations).some((c) => c.handle);

/**
 * A call of a holder whose handle is unknown, not made: the operation that hands out its handle
 * lost its answer (or has not answered yet), so it may hold with a handle nobody knows. The runner
 * records the call as indeterminate, which is sound (it did nothing, which "may have taken effect
 * or not" covers); calling without the handle would be judged as the holder calling, and fail a
 * correct implementation that can only act with its handle.
 */
export class UnknownHandleError extends Error {
  override readonly name = 'UnknownHandleError';
}

/** An operation that undid itself inside its call (declared givesBack): recorded as indeterminate. */
export class GaveBackError extends Error {
  override readonly name = 'GaveBackError';
}

/** Answers of one implementation's subjects, recorded as declared; the holders' handles kept. */
export class DeclaredAnswers {
  constructor(
    private readonly pattern: AnyPattern,
    readonly capabilities: Capabilities,
    private readonly table: HandleTable = new HandleTable(),
    /** How many times the implementation's connections have closed so far (link-drops.ts); absent: never known. */
    private readonly drops: () => number = () => 0,
  ) {}

  /**
   * Make one call of the implementation (`run` receives the holder's handle, when handles are
   * declared) and return the answer as the history records it.
   */
  async call(
    key: string,
    input: Record<string, unknown>,
    run: (handle: unknown) => Promise<unknown>,
    receipt?: Receipt,
  ): Promise<unknown> {
    if (!this.passesHandle()) return this.record(key, input, await run(undefined), receipt);
    const holder = this.holderOf(key, input);
    const gives = this.capabilities.operations[input.op as string]?.handle === true;
    if (holder === undefined) return this.record(key, input, await run(undefined), receipt);
    if (!gives) {
      if (this.table.lost.has(holder) || (this.table.inFlight.get(holder) ?? 0) > 0) {
        throw new UnknownHandleError(
          `not called: the handle of holder ${String(input[this.pattern.holder!.arg])} is unknown (the answer that would have carried it was lost)`,
        );
      }
      return this.record(key, input, await run(this.table.handles.get(holder)), receipt);
    }
    this.table.inFlight.set(holder, (this.table.inFlight.get(holder) ?? 0) + 1);
    const dropsBefore = this.drops();
    try {
      const recorded = this.record(key, input, await run(this.table.handles.get(holder)), receipt);
      // A connection closed during the call: the client may have resent it, and the run whose
      // answer was lost may have taken the lock under a value the implementation made and never
      // handed out. The holder's later calls could not act as that holder: its handle is unknown.
      if (this.drops() !== dropsBefore && !(isRecord(recorded) && 'handle' in recorded)) this.table.lost.add(holder);
      return recorded;
    } catch (error) {
      this.table.lost.add(holder);
      throw error;
    } finally {
      this.table.inFlight.set(holder, this.table.inFlight.get(holder)! - 1);
    }
  }

  private holderOf(key: string, input: Record<string, unknown>): string | undefined {
    const arg = this.pattern.holder?.arg;
    const holder = arg === undefined ? undefined : input[arg];
    return typeof holder === 'string' ? `${key}\0${holder}` : undefined;
  }

  /** The handle this call's holder was last handed (undefined: none, or no handles declared). */
  handleFor(key: string, input: Record<string, unknown>): unknown {
    if (!givesHandles(this.capabilities)) return undefined;
    const holder = this.holderOf(key, input);
    return holder === undefined ? undefined : this.table.handles.get(holder);
  }

  /** Does this operation's call receive a handle (a trailing argument, or `args.handle`)? */
  passesHandle(): boolean {
    return givesHandles(this.capabilities);
  }

  /**
   * What the history records for the implementation's answer `raw` to `input` on `key`. A refusal
   * (`{ refused }`) throws, to be recorded as failed; an answer that gave back puts what giving back
   * did in `receipt.alsoDid`.
   */
  record(key: string, input: Record<string, unknown>, raw: unknown, receipt?: Receipt): unknown {
    const op = input.op as string;
    const refused = refusalOf(raw);
    if (refused !== undefined) throw new RefusedError(refused);
    const declared = this.capabilities.operations[op] ?? { level: EXACT, handle: false };
    if (declared.givesBack && isRecord(raw) && raw.gaveBack === true && Object.hasOwn(raw, 'answer'))
      return this.gaveBack(op, input, raw.answer, receipt);
    let answer = raw;
    let handle: string | undefined;
    if (declared.handle && isRecord(raw) && Object.hasOwn(raw, 'answer')) {
      answer = raw.answer;
      if (raw.handle !== undefined && raw.handle !== null) {
        const holder = this.holderOf(key, input);
        if (holder !== undefined) {
          this.table.handles.set(holder, raw.handle);
          this.table.lost.delete(holder);
        }
        handle = handleText(raw.handle);
      }
    }
    if (declared.level === EXACT && handle === undefined) {
      // A raw answer shaped like an envelope would be judged at the level it names: an exact answer never is.
      return isLeveledAnswer(answer) ? `(an answer shaped like a level envelope: ${JSON.stringify(answer)})` : answer;
    }
    // A void answer is not looked at: nothing of it is kept (it may be any object a library resolves with).
    const envelope: LeveledAnswer = {
      level: declared.level,
      op,
      answer: declared.level === voidLevel.name ? null : (answer ?? null),
      ...(handle === undefined ? {} : { handle }),
    };
    return envelope;
  }

  /**
   * An operation that undid itself inside its call: it throws GaveBackError (the runner records the
   * operation as indeterminate) and puts the undoing operation (the pattern's `givesBack`) in the
   * receipt, indeterminate too. Neither answer says which way it went (Redlock's false is "held by
   * another" or "taken, then given back"), and a library that swallows errors (pottery) may not have
   * reached Redis with either command, or reached it after answering: "at any instant after the
   * call began, or never" is what is known of each. The holder keeps no handle: it holds nothing.
   */
  private gaveBack(op: string, input: Record<string, unknown>, answer: unknown, receipt: Receipt | undefined): never {
    const undo = this.pattern.givesBack![op];
    const undoInput = Object.fromEntries([['op', undo.op], ...undo.args.map((name) => [name, input[name]])]);
    if (receipt)
      (receipt.alsoDid ??= []).push({ input: undoInput, error: `${undo.op} inside the ${op} call that gave back` });
    throw new GaveBackError(
      `gave back inside the call: ${op} answered ${JSON.stringify(answer ?? null)} after undoing whatever it took (${undo.op})`,
    );
  }
}
