/**
 * Answers as the history records them, given what the implementation declared: raw at the exact
 * level (as before capabilities existed), else an envelope naming the operation and the level it
 * answered at (src/patterns/levels.ts), with the text of any holder handle. Also keeps each
 * holder's handle, so that later calls of that holder receive it.
 */
import { inspect } from 'node:util';
import type { Capabilities } from '../patterns/capabilities.ts';
import { EXACT, isLeveledAnswer, type LeveledAnswer } from '../patterns/levels.ts';
import type { AnyPattern } from '../patterns/index.ts';

/** Longest handle text kept in a history. */
const HANDLE_TEXT = 80;

/** A handle as the history shows it: opaque, never read back (the live value stays with the subject). */
function handleText(handle: unknown): string {
  const text = typeof handle === 'string' ? handle : inspect(handle, { depth: 0, breakLength: Infinity });
  return text.length > HANDLE_TEXT ? `${text.slice(0, HANDLE_TEXT)}...` : text;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One logical client's view: its holders' handles, by key and holder. */
export class DeclaredAnswers {
  private readonly handles = new Map<string, unknown>();

  constructor(
    private readonly pattern: AnyPattern,
    readonly capabilities: Capabilities,
  ) {}

  private holderOf(key: string, input: Record<string, unknown>): string | undefined {
    const arg = this.pattern.holder?.arg;
    const holder = arg === undefined ? undefined : input[arg];
    return typeof holder === 'string' ? `${key}\0${holder}` : undefined;
  }

  /** The handle this call's holder was last handed (undefined: none, or no handles declared). */
  handleFor(key: string, input: Record<string, unknown>): unknown {
    if (!Object.values(this.capabilities.operations).some((c) => c.handle)) return undefined;
    const holder = this.holderOf(key, input);
    return holder === undefined ? undefined : this.handles.get(holder);
  }

  /** Does this operation's call receive a handle (a trailing argument, or `args.handle`)? */
  passesHandle(): boolean {
    return Object.values(this.capabilities.operations).some((c) => c.handle);
  }

  /** What the history records for the implementation's answer `raw` to `input` on `key`. */
  record(key: string, input: Record<string, unknown>, raw: unknown): unknown {
    const op = input.op as string;
    const declared = this.capabilities.operations[op] ?? { level: EXACT, handle: false };
    let answer = raw;
    let handle: string | undefined;
    if (declared.handle && isRecord(raw) && Object.hasOwn(raw, 'answer')) {
      answer = raw.answer;
      if (raw.handle !== undefined && raw.handle !== null) {
        const holder = this.holderOf(key, input);
        if (holder !== undefined) this.handles.set(holder, raw.handle);
        handle = handleText(raw.handle);
      }
    }
    if (declared.level === EXACT && handle === undefined) {
      // A raw answer shaped like an envelope would be judged at the level it names: an exact answer never is.
      return isLeveledAnswer(answer) ? `(an answer shaped like a level envelope: ${JSON.stringify(answer)})` : answer;
    }
    // A void answer is not looked at: nothing of it is kept (it may be any object a library resolves with).
    const envelope: LeveledAnswer = { level: declared.level, op, answer: declared.level === 'void' ? null : (answer ?? null), ...(handle === undefined ? {} : { handle }) };
    return envelope;
  }
}
