/**
 * The models' barrel: the generic machinery (types, timed, uncertain, replies) and the generic
 * models (register, kv). Each pattern's model lives in its own folder (src/patterns/<name>/model.ts)
 * and is offered by the registry and the public barrel, not here: the models know no pattern.
 */
export type { Model, Step } from './types.ts';
export type { TimedState } from './timed.ts';
export type { Candidate, LeaseWindow, Observation, Observed } from './uncertain.ts';
export { timed, expireAt, stepAt } from './timed.ts';
export { initialCandidates, observeStep, leaseWindows } from './uncertain.ts';
export { replyText } from './reply.ts';
export type { RegisterInput, RegisterOutput, RegisterState, RegisterValue } from './register.ts';
export type { KvInput, KvOutput, KvState } from './kv.ts';
export { register } from './register.ts';
export { kv } from './kv.ts';
