/**
 * The models' barrel: the generic machinery (types, timed, uncertain, replies), the generic models
 * (register, kv), and, re-exported from src/patterns, each pattern's model. Only this barrel looks
 * into src/patterns; the files of src/model never do.
 */
import type { PatternName } from '../patterns/index.ts';

export type { Model, Step } from './types.ts';
export type { IdempotencyInput, IdempotencyOutput, IdempotencyState, RegisterFresh, RegisterHit } from '../patterns/idempotency/model.ts';
export type { LockInput, LockOutput, LockState } from '../patterns/lock/model.ts';
export type { RateLimitInput, RateLimitOutput, RateLimitState } from '../patterns/ratelimit/model.ts';
export type { TimedState } from './timed.ts';
export type { Candidate, LeaseWindow, Observation, Observed } from './uncertain.ts';
export { idempotency } from '../patterns/idempotency/model.ts';
export { lock } from '../patterns/lock/model.ts';
export { ratelimit } from '../patterns/ratelimit/model.ts';
export { timed, expireAt, stepAt } from './timed.ts';
export { initialCandidates, observeStep, leaseWindows } from './uncertain.ts';
export { replyText } from './reply.ts';

/** Every reference model, by the name subjects and the CLI use (read from the pattern registry). */
export { models } from '../patterns/index.ts';
export type ModelName = PatternName;
export type { RegisterInput, RegisterOutput, RegisterState, RegisterValue } from './register.ts';
export type { KvInput, KvOutput, KvState } from './kv.ts';
export { register } from './register.ts';
export { kv } from './kv.ts';
export { checkableModels, checkableModel, isCheckableModel } from '../patterns/checkable.ts';
export type { CheckableModelName } from '../patterns/checkable.ts';
