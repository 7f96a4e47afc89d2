import type { Cluster as IORedisCluster } from 'ioredis';
import { PATTERN_NAMES, PATTERNS, type PatternName } from '../patterns/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import type { ReferenceSubject } from '../subject/adapter.ts';
import { projectScriptsDir } from '../scripts/paths.ts';
import type { ScriptMode } from '../scripts/runner.ts';
import { knownKeys, nonEmptyString, oneOf } from '../scripts/validate.ts';

export type { ReferenceSubject } from '../subject/adapter.ts';

/** Client options every harness connection uses: RESP2, and a bound on a stuck command. */
export const HARNESS_REDIS_OPTIONS = { redisOptions: { commandTimeout: 2_000 } } as const;

export type ReferencePattern = PatternName;

export interface ReferenceSubjectOptions {
  /** Scripts directory (`certify --impl lua:DIR`). Default: the project's lua/<pattern>. */
  scriptsDir?: string;
  mode?: ScriptMode;
  /** Goes into every Redis key, so runs on a shared cluster do not meet. Default 'chaoslua'. */
  namespace?: string;
  /** Which script answers, for a pattern with reference variants (ratelimit: default 'get-first'). */
  variant?: string;
  /** Quit the Redis client on close(). Default false: whoever created it closes it. */
  quitOnClose?: boolean;
}

/** The reference subject type of each pattern. */
export type ReferenceSubjectOf<P extends PatternName> = Awaited<ReturnType<(typeof PATTERNS)[P]['openReference']>>;

const WHERE = 'createReferenceSubject';

/**
 * The reference client of a pattern named in the registry, over a scripts directory, as a Subject:
 * loads the scripts on every master first. For code that certifies from a program (the public API);
 * the harness itself hands the pattern down as a value (openReferenceSubject).
 */
export async function createReferenceSubject<P extends PatternName>(
  pattern: P,
  redis: IORedisCluster,
  options: ReferenceSubjectOptions = {},
): Promise<ReferenceSubjectOf<P>> {
  oneOf(WHERE, 'pattern', pattern, PATTERN_NAMES);
  return (await openReferenceSubject(PATTERNS[pattern], redis, options)) as ReferenceSubjectOf<P>;
}

/** The pattern's reference client over a scripts directory, as a Subject (options checked as createReferenceSubject's). */
export async function openReferenceSubject(
  pattern: AnyPattern,
  redis: IORedisCluster,
  options: ReferenceSubjectOptions = {},
): Promise<ReferenceSubject<unknown, unknown>> {
  knownKeys(WHERE, options, ['scriptsDir', 'mode', 'namespace', 'variant', 'quitOnClose']);
  const variants = pattern.referenceVariants;
  if (options.variant !== undefined && variants === undefined) {
    const having = PATTERN_NAMES.filter((name) => 'referenceVariants' in PATTERNS[name]);
    throw new RangeError(`${WHERE}: variant applies to ${having.join(', ')} only, not ${pattern.name}`);
  }
  const scriptsDir = nonEmptyString(WHERE, 'scriptsDir', options.scriptsDir ?? projectScriptsDir(pattern.name));
  const mode = oneOf(WHERE, 'mode', options.mode ?? 'evalsha', ['evalsha', 'fcall']);
  const namespace = nonEmptyString(WHERE, 'namespace', options.namespace ?? 'chaoslua');
  if (/[{}]/.test(namespace))
    throw new RangeError(`${WHERE}: namespace must not contain braces (it sits inside the hash tag), got ${namespace}`);
  const quitOnClose = options.quitOnClose ?? false;
  return pattern.openReference(redis, {
    scriptsDir,
    mode,
    namespace,
    quitOnClose,
    ...(options.variant === undefined ? {} : { variant: options.variant }),
  });
}
