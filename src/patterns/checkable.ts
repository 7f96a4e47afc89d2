/**
 * Everything `chaoslua check` can judge a history against, by name: the Redis patterns (which
 * certify and run generate schedules for), each a check spec as it stands (its model and the
 * invariants its classifier names), and the generic models for histories recorded elsewhere.
 * Kept apart from the registry so that certify and run never offer a pattern they cannot generate.
 */
import type { CheckSpec } from '../checker/spec.ts';
import { kv } from '../model/kv.ts';
import { register } from '../model/register.ts';
import type { Model } from '../model/types.ts';
import { isPatternName, patternNamed, PATTERNS } from './index.ts';

export const checkables = { ...PATTERNS, register: { model: register }, kv: { model: kv } } as const satisfies Readonly<
  Record<string, CheckSpec>
>;
export type CheckableModelName = keyof typeof checkables;

/** Each checkable's model, by name. */
export const checkableModels = Object.fromEntries(
  Object.entries(checkables).map(([name, spec]) => [name, spec.model]),
) as { readonly [N in CheckableModelName]: (typeof checkables)[N]['model'] };

/** A checkable's name, or a pattern loaded from a file (`--model ./queue.mjs`). */
export function isCheckableModel(name: string): name is CheckableModelName {
  return Object.hasOwn(checkables, name) || isPatternName(name);
}

/** The spec by name, typed loosely: a history read from a file is checked against whatever it names. */
export function checkableSpec(name: CheckableModelName): CheckSpec<unknown, unknown, unknown> {
  const spec = Object.hasOwn(checkables, name) ? checkables[name] : patternNamed(name);
  return spec as unknown as CheckSpec<unknown, unknown, unknown>;
}

/** The model by name, typed loosely (reading and describing a history's operations). */
export function checkableModel(name: CheckableModelName): Model<unknown, unknown, unknown> {
  return checkableSpec(name).model;
}
