/**
 * "The implementation refused and wrote nothing": a library that declines a call before touching
 * Redis (a lock it knows is held, an argument it rejects, a limiter that answers from its own state)
 * says so, and the operation is recorded as failed (certainly no effect), as a Redis error code that
 * proves nothing ran is. A module's method resolves `{ refused: 'why' }`; a process program answers
 * `{"ok": false, "refused": true, "error": "why"}`. Claiming it for a call that did write produces a
 * false history: only an implementation that knows it sent nothing may say it.
 */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
  constructor(reason: string) {
    super(`refused without writing: ${reason}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Is this answer `{ refused: 'why' }` (exactly that field, a string)? An exact reply is never an object of that shape. */
export function refusalOf(answer: unknown): string | undefined {
  if (!isRecord(answer) || typeof answer.refused !== 'string') return undefined;
  return Object.keys(answer).length === 1 ? answer.refused : undefined;
}
