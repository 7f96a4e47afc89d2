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

export const PATTERNS = { idempotency, lock, ratelimit, semaphore, gcra } as const satisfies Readonly<
  Record<string, AnyPattern>
>;

export type PatternName = keyof typeof PATTERNS;
export type {
  AnyPattern,
  DuplicateDeclaration,
  Operation,
  Pattern,
  PatternSetting,
  RequiredTransition,
} from './types.ts';

/** In registry order; the first is the default pattern. */
export const PATTERN_NAMES = Object.keys(PATTERNS) as PatternName[];

export const DEFAULT_PATTERN: PatternName = PATTERN_NAMES[0];

/**
 * Patterns a team declared, loaded from their files for this process (`--pattern ./queue.mjs`, by
 * the CLI's edge, before any command looks a name up): from then on a name like the built-ins'.
 */
const loaded = new Map<string, AnyPattern>();

export const isBuiltInPattern = (name: unknown): name is PatternName =>
  typeof name === 'string' && Object.hasOwn(PATTERNS, name);

/** A built-in pattern's name, or a loaded one's (typed loosely: a loaded pattern's name is any string). */
export const isPatternName = (name: unknown): name is PatternName =>
  isBuiltInPattern(name) || (typeof name === 'string' && loaded.has(name));

/** Every pattern name this process knows: the built-ins, then those loaded from files. */
export const knownPatternNames = (): string[] => [...PATTERN_NAMES, ...loaded.keys()];

/** Make a loaded pattern known by its name; a built-in's name, or another file's, is refused. */
export function addLoadedPattern(pattern: AnyPattern): void {
  if (isBuiltInPattern(pattern.name))
    throw new RangeError(`'${pattern.name}' is a built-in pattern's name: name yours otherwise`);
  const before = loaded.get(pattern.name);
  if (before && before.source?.sha256 !== pattern.source?.sha256)
    throw new RangeError(`'${pattern.name}' is already the name of ${before.source?.file ?? 'another pattern'}`);
  loaded.set(pattern.name, pattern);
}

/** Forget every loaded pattern: for a process that loads files again (the tests, which share workers between files). */
export function forgetLoadedPatterns(): void {
  loaded.clear();
}

/** The pattern of that name; a RangeError naming the known ones otherwise (`where` says who asked). */
export function patternNamed(name: string, where = 'pattern'): AnyPattern {
  if (isBuiltInPattern(name)) return PATTERNS[name];
  const found = loaded.get(name);
  if (!found)
    throw new RangeError(
      `${where}: unknown pattern '${name}' (known: ${knownPatternNames().join(', ')}; or a pattern file: --pattern ./my-pattern.mjs)`,
    );
  return found;
}

/** A pattern's operations by `op`, typed as any pattern's (the registry's entries are typed each its own way). */
export const operationsOf = (name: string): Readonly<Record<string, Operation>> => patternNamed(name).operations;

/** The pattern a model specifies, if it is one this process knows (register and kv are models without a pattern). */
export const patternOfModel = (modelName: string): AnyPattern | undefined =>
  isPatternName(modelName) ? patternNamed(modelName) : undefined;

/** Every pattern's reference model, by pattern name. */
export const models = Object.fromEntries(PATTERN_NAMES.map((name) => [name, PATTERNS[name].model])) as {
  readonly [P in PatternName]: (typeof PATTERNS)[P]['model'];
};
