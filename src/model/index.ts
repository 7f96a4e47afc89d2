import { idempotency } from './idempotency.ts';
import { lock } from './lock.ts';
import { ratelimit } from './ratelimit.ts';

export type { Model, Step } from './types.ts';
export type { IdempotencyInput, IdempotencyOutput, IdempotencyState, RegisterFresh, RegisterHit } from './idempotency.ts';
export type { LockInput, LockOutput, LockState } from './lock.ts';
export type { RateLimitInput, RateLimitOutput, RateLimitState } from './ratelimit.ts';
export type { TimedState } from './timed.ts';
export type { Candidate, LeaseWindow, Observation, Observed } from './uncertain.ts';
export { idempotency, lock, ratelimit };
export { timed, expireAt, stepAt } from './timed.ts';
export { initialCandidates, observeStep, leaseWindows } from './uncertain.ts';
export { replyText } from './reply.ts';

/** Every reference model, by the name subjects and the CLI use. */
export const models = { idempotency, lock, ratelimit } as const;
export type ModelName = keyof typeof models;
export type { RegisterInput, RegisterOutput, RegisterState, RegisterValue } from './register.ts';
export type { KvInput, KvOutput, KvState } from './kv.ts';
export { register } from './register.ts';
export { kv } from './kv.ts';
export { checkableModels, checkableModel, isCheckableModel } from './checkable.ts';
export type { CheckableModelName } from './checkable.ts';
