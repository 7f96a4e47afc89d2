/**
 * The pattern registry: every pattern chaoslua certifies, by the name the CLI, schedules, histories
 * and certificates use. Adding a pattern is a folder beside these and one line here.
 */
import { gcra } from './gcra/index.ts';
import { idempotency } from './idempotency/index.ts';
import { lock } from './lock/index.ts';
import { ratelimit } from './ratelimit/index.ts';
import { semaphore } from './semaphore/index.ts';
import type { AnyPattern, Operation } from './types.ts';

export const PATTERNS = { idempotency, lock, ratelimit, semaphore, gcra } as const satisfies Readonly<Record<string, AnyPattern>>;

export type PatternName = keyof typeof PATTERNS;
export type { AnyPattern, DuplicateDeclaration, Operation, Pattern, PatternSetting, RequiredTransition } from './types.ts';

/** In registry order; the first is the default pattern. */
export const PATTERN_NAMES = Object.keys(PATTERNS) as PatternName[];

export const DEFAULT_PATTERN: PatternName = PATTERN_NAMES[0];

export const isPatternName = (name: unknown): name is PatternName => typeof name === 'string' && Object.hasOwn(PATTERNS, name);

/** The pattern of that name; a RangeError naming the known ones otherwise (`where` says who asked). */
export function patternNamed(name: string, where = 'pattern'): AnyPattern {
  if (!isPatternName(name)) throw new RangeError(`${where}: unknown pattern '${name}' (known: ${PATTERN_NAMES.join(', ')})`);
  return PATTERNS[name];
}

/** A pattern's operations by `op`, typed as any pattern's (the registry's entries are typed each its own way). */
export const operationsOf = (name: PatternName): Readonly<Record<string, Operation>> => PATTERNS[name].operations;

/** The pattern a model specifies, if it is one of the registry's (register and kv are models without a pattern). */
export const patternOfModel = (modelName: string): AnyPattern | undefined => (isPatternName(modelName) ? PATTERNS[modelName] : undefined);

/** Every pattern's reference model, by pattern name. */
export const models = Object.fromEntries(PATTERN_NAMES.map((name) => [name, PATTERNS[name].model])) as { readonly [P in PatternName]: (typeof PATTERNS)[P]['model'] };
