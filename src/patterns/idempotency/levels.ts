/**
 * The idempotency store's coarse answers, from what idempotency libraries return. A register
 * answers one of three outcomes without the stored fingerprint or the record's fields beyond the
 * response: `['fresh']` (run the handler), `['in-progress']` (another request holds the key) or
 * `['completed', status, body]` (replay this response). complete, release and renew answer a
 * boolean, or nothing (a library whose write resolves nothing).
 */
import { type Level, type LevelTable, booleanLevel, DONE, voidLevel, replyText } from '../../pattern.ts';

/** The exact register reply as the three outcomes; anything else (another operation's answer) as itself. */
function outcomeOf(exact: unknown): unknown {
  if (!Array.isArray(exact)) return exact;
  if (exact.length === 1 && exact[0] === 'fresh') return ['fresh'];
  if (exact[0] === 'hit' && exact[1] === 'pending') return ['in-progress'];
  if (exact[0] === 'hit' && exact[1] === 'completed') return ['completed', exact[3], exact[4]];
  return exact;
}

const outcome: Level = {
  name: 'outcome',
  answer: "['fresh'] | ['in-progress'] | ['completed', status, body]",
  project: outcomeOf,
  parse(observed) {
    if (!Array.isArray(observed)) return { ok: false, problem: `expected an array, got ${JSON.stringify(observed)}` };
    const [kind, ...rest] = observed.map((v) => replyText(v));
    if ((kind === 'fresh' || kind === 'in-progress') && rest.length === 0) return { ok: true, value: [kind] };
    if (kind === 'completed' && rest.length === 2 && rest.every((v) => v !== undefined))
      return { ok: true, value: ['completed', ...rest] };
    return {
      ok: false,
      problem: `expected ['fresh'], ['in-progress'] or ['completed', status, body], got ${JSON.stringify(observed)}`,
    };
  },
  witnesses: ['one-winner', 'no-resurrection', 'model-conformance'],
};

const written = (what: string) =>
  booleanLevel(DONE, `true ${what} | false not the pending owner`, [
    'no-stale-overwrite',
    'no-resurrection',
    'model-conformance',
  ]);

export const idempotencyLevels: LevelTable = {
  register: [outcome],
  complete: [written('stored'), voidLevel],
  release: [written('released'), voidLevel],
  renew: [written('renewed'), voidLevel],
};
