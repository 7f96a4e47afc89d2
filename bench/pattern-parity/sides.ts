/**
 * The checkers bench/pattern-parity.ts compares, one lock state machine each: the built-in lock
 * (src/patterns/lock, written by hand with every search hint), the team-lock fixture as a team
 * writes it (the pattern API's core only: its holder lookahead derived from the model,
 * src/patterns/define/holder-hints.ts), the same fixture with the `search:` opt-in group the
 * built-in model has (its holder lookahead members, rewritten for the fixture's states), and the
 * fixture with `search: {}` (a plain search, what team-lock was before the lookahead was derived).
 */
import type { Checkable } from '../../src/checker/index.ts';
import {
  compilePattern,
  integerReplyMatches,
  isNilReply,
  type PatternSpec,
  type SearchHints,
} from '../../src/pattern.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// Loaded as the CLI's --pattern loads a file: a plain module of JavaScript, its default export.
export const TEAM_LOCK_FILE = new URL('../../suites/fixtures/patterns/team-lock.mjs', import.meta.url);
const teamLock = ((await import(TEAM_LOCK_FILE.href)) as { default: PatternSpec }).default;

type TeamState = { readonly kind: 'free' } | { readonly kind: 'held'; readonly token: string; readonly tag: number };
type TeamInput = { readonly op: 'acquire' | 'release' | 'extend'; readonly token: string; readonly ttlMs?: number };

/**
 * src/patterns/lock/model.ts's requires, grants, holdsIdentity, holderOf, requiresVacant, mayEnd,
 * excludes and answerLeaves, for states named free/held (the fixture's) rather than absent/held.
 */
export const lockSearchHints: SearchHints<TeamState, TeamInput> = {
  requires: (input, output) => (input.op !== 'acquire' && integerReplyMatches(1, output) ? input.token : undefined),
  grants: (input, output) =>
    input.op === 'acquire' && (output === undefined || integerReplyMatches(1, output)) ? input.token : undefined,
  holdsIdentity: (state, token) => state.kind === 'held' && state.token === token,
  holderOf: (state) => (state.kind === 'held' ? state.token : undefined),
  requiresVacant: (input, output) => (input.op === 'acquire' ? integerReplyMatches(1, output) : isNilReply(output)),
  mayEnd: (input) => (input.op === 'acquire' ? undefined : input.token),
  excludes: (input, output) =>
    input.op !== 'acquire' && (integerReplyMatches(-1, output) || isNilReply(output)) ? input.token : undefined,
  answerLeaves(input, output, id) {
    if (!integerReplyMatches(1, output)) return undefined;
    if (input.op === 'release') return { kind: 'free' };
    return input.op === 'extend' && (input.ttlMs ?? 1) <= 0
      ? { kind: 'free' }
      : { kind: 'held', token: input.token, tag: id };
  },
};

export const SIDES = {
  'built-in lock': PATTERNS.lock,
  'team-lock': compilePattern(teamLock),
  'team-lock + search hints': compilePattern({ ...teamLock, search: lockSearchHints }),
  'team-lock, plain search': compilePattern({ ...teamLock, search: {} }),
} as const satisfies Record<string, Checkable>;

export type SideName = keyof typeof SIDES;
export const SIDE_NAMES = Object.keys(SIDES) as SideName[];
