/**
 * Every model `chaoslua check` can judge a history against, by name: the Redis patterns (which
 * certify and run generate schedules for) and the generic models for histories recorded elsewhere.
 * Kept apart from the registry so that certify and run never offer a pattern they cannot generate.
 */
import { kv } from '../model/kv.ts';
import { register } from '../model/register.ts';
import type { Model } from '../model/types.ts';
import { models } from './index.ts';

export const checkableModels = { ...models, register, kv } as const;
export type CheckableModelName = keyof typeof checkableModels;

export function isCheckableModel(name: string): name is CheckableModelName {
  return Object.hasOwn(checkableModels, name);
}

/** The model by name, typed loosely: a history read from a file is checked against whatever it names. */
export function checkableModel(name: CheckableModelName): Model<unknown, unknown, unknown> {
  return checkableModels[name] as unknown as Model<unknown, unknown, unknown>;
}
