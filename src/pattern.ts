/**
 * chaoslua's pattern API (`import { definePattern, arg } from 'chaoslua/pattern'`): what a team
 * writes to certify its own Redis Lua state machine. The core is `definePattern` with operations
 * drawn by `arg` helpers and a model of a few pure functions; the rest are the opt-in groups'
 * building blocks, the same ones the built-in patterns are written with. docs/patterns.md is its
 * guide. Versioned by PATTERN_API_VERSION: a change that breaks a pattern file raises it.
 */

// The core.
export { definePattern, arg, PatternError, PATTERN_API_VERSION } from './patterns/define/index.ts';
export type { ArgSpec, DrawContext, InvariantSpec, LeaseRule, ModelSpec, OperationSpec, PatternSpec, StepResult, Stuck } from './patterns/define/index.ts';
export type { CoverageGroup, OptInGroups, SearchHints, SessionDraw } from './patterns/define/index.ts';
export { compilePattern, type PatternSource } from './patterns/define/compile.ts';
export { replyMatches } from './patterns/define/replies.ts';

// Reply helpers for a model's `matches`: representation-tolerant, nothing looser.
export { integerReplyMatches, isNilReply, replyText } from './model/reply.ts';

// The sessions group: a session is steps of one client (an operation on a key, a pause, a freeze).
export type { ClientStep } from './plan/schedule.ts';
export type { SessionContext, SessionOptions, RaceContext, Race, RaceSource } from './generator/sessions/common.ts';
export { token, thinkTime, outliveLease, otherToken } from './generator/sessions/common.ts';
export { leaseSettings, leasesOf } from './patterns/time-scale.ts';
export type { SessionSetting } from './generator/settings.ts';

// The races group: the two shapes a critical instant takes.
export { leaseEndRace, lastPlaceRace, type LeaseEndParts, type LastPlaceParts } from './generator/sessions/race-shapes.ts';

// The levels group: coarse answers real libraries give.
export { booleanLevel, voidLevel, DONE, EXACT, type Level, type LevelTable } from './patterns/levels.ts';

// The declarations a pattern may make beside its model.
export type { ArgType, DuplicateDeclaration, GiveBack, HolderIdentity, RequiredTransition, SemanticVariant } from './patterns/types.ts';
