/**
 * Every pattern's reference model (the specification, raw: exact answers only), with its types,
 * in one place for code that judges or simulates histories of a known pattern (tests, benches).
 * `models` holds them by pattern name.
 */
export type {
  IdempotencyInput,
  IdempotencyOutput,
  IdempotencyState,
  RegisterFresh,
  RegisterHit,
} from './idempotency/model.ts';
export type { LockInput, LockOutput, LockState } from './lock/model.ts';
export type { RateLimitInput, RateLimitOutput, RateLimitState } from './ratelimit/model.ts';
export type { SemaphoreInput, SemaphoreOutput, SemaphoreState } from './semaphore/model.ts';
export { idempotency } from './idempotency/model.ts';
export { lock } from './lock/model.ts';
export { ratelimit } from './ratelimit/model.ts';
export { semaphore } from './semaphore/model.ts';
export { models } from './index.ts';
