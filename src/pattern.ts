/**
 * chaoslua's pattern API (`import { definePattern, arg } from 'chaoslua/pattern'`): what a team
 * writes to certify its own Redis Lua state machine. The core is `definePattern` with operations
 * drawn by `arg` helpers and a model of a few pure functions; the rest are the opt-in groups'
 * building blocks, the same ones the built-in patterns are written with. docs/patterns.md is its
 * guide. Versioned by PATTERN_API_VERSION: a change that breaks a pattern file raises it.
 */

// The core.
export { definePattern, arg, PatternError, PATTERN_API_VERSION } from './patterns/define/index.ts';
export type {
  ArgSpec,
  DrawContext,
  InvariantSpec,
  LeaseRule,
  ModelSpec,
  OperationSpec,
  PatternSpec,
  StepResult,
  Stuck,
} from './patterns/define/index.ts';
export type { CoverageGroup, OptInGroups, SearchHints, SessionDraw } from './patterns/define/index.ts';
export { compilePattern, type PatternSource } from './patterns/define/compile.ts';
export { replyMatches } from './patterns/define/replies.ts';

// Reply helpers for a model's `matches`: representation-tolerant, nothing looser.
export { integerReplyMatches, isNilReply, replyText } from './model/reply.ts';

// Writing a model by hand: the checker's Model and Step, and the input checks and quoting its functions use.
export type { Model, Step } from './model/types.ts';
export { quote, requireInteger } from './model/reply.ts';

// The sessions group: a session is steps of one client (an operation on a key, a pause, a freeze).
export type { ClientStep } from './plan/schedule.ts';
export type { SessionContext, SessionOptions, RaceContext, Race, RaceSource } from './generator/sessions/common.ts';
export { token, thinkTime, outliveLease, otherToken } from './generator/sessions/common.ts';
export { leaseSettings, leasesOf, ttlSettings, ttlsOf } from './patterns/time-scale.ts';
export { setting, type SessionSetting } from './generator/settings.ts';

// The races group: the two shapes a critical instant takes.
export {
  leaseEndRace,
  lastPlaceRace,
  type LeaseEndParts,
  type LastPlaceParts,
} from './generator/sessions/race-shapes.ts';

// The levels group: coarse answers real libraries give, fitted onto a model by withLevels.
export { booleanLevel, voidLevel, withLevels, DONE, EXACT, type Level, type LevelTable } from './patterns/levels.ts';

// The declarations a pattern may make beside its model.
export type {
  ArgType,
  DuplicateDeclaration,
  GiveBack,
  HolderIdentity,
  RequiredTransition,
  SemanticVariant,
} from './patterns/types.ts';

// Writing a pattern by hand: the value every stage takes, and the settings it declares.
export type { Pattern, PatternSetting } from './patterns/types.ts';

// Naming invariants: the stuck point a classifier reads and the words reports use.
export type { Classifier, StuckContext } from './checker/invariants/types.ts';
export { holderPhrase, keyName } from './checker/invariants/words.ts';
export { opPhrase, outputText } from './checker/describe.ts';

// A reference client: scripts loaded on every master, called by EVALSHA or FCALL, with metrics.
export { openScriptRunner, scriptOptions, type RunnerSpec } from './scripts/open-runner.ts';
export type { ScriptArg, ScriptMode, ScriptObserver, ScriptRunner } from './scripts/runner.ts';
export { ScriptMetrics, BODY_BYTES_BUCKETS } from './scripts/metrics.ts';
export { UnexpectedReplyError, zeroOrOne } from './scripts/replies.ts';

// A client's options checked once at its edge: one line naming what is wrong.
export { knownKeys, nonEmptyString, oneOf, positiveInt } from './scripts/validate.ts';

// A client on standalone Redis servers (Redlock's masters): the scripts read from a folder, run on one server.
export { loadScriptDir, type ScriptSource } from './scripts/source.ts';
export { StandaloneScriptRunner } from './scripts/standalone-runner.ts';

// The reference subject: a client wrapped as the Subject the runner drives, and what it returns.
export { ReferenceAdapter, type ReferenceSubject } from './subject/adapter.ts';
export type { Receipt, Subject } from './subject/types.ts';
