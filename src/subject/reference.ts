import type { Cluster as IORedisCluster } from 'ioredis';
import { PATTERN_NAMES, PATTERNS, type PatternName } from '../patterns/index.ts';
import type { ReferenceSubject } from './adapter.ts';
import { projectScriptsDir } from '../scripts/paths.ts';
import type { ScriptMode } from '../scripts/runner.ts';
import { knownKeys, nonEmptyString, oneOf } from '../scripts/validate.ts';

export type { ReferenceSubject } from './adapter.ts';

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

/** The reference client over a scripts directory, as a Subject: loads the scripts on every master first. */
export async function createReferenceSubject<P extends PatternName>(pattern: P, redis: IORedisCluster, options: ReferenceSubjectOptions = {}): Promise<ReferenceSubjectOf<P>> {
  knownKeys(WHERE, options, ['scriptsDir', 'mode', 'namespace', 'variant', 'quitOnClose']);
  oneOf(WHERE, 'pattern', pattern, PATTERN_NAMES);
  const spec = PATTERNS[pattern];
  const variants: readonly string[] | undefined = 'referenceVariants' in spec ? spec.referenceVariants : undefined;
  if (options.variant !== undefined && variants === undefined) {
    const having = PATTERN_NAMES.filter((name) => 'referenceVariants' in PATTERNS[name]);
    throw new RangeError(`${WHERE}: variant applies to ${having.join(', ')} only, not ${pattern}`);
  }
  const scriptsDir = nonEmptyString(WHERE, 'scriptsDir', options.scriptsDir ?? projectScriptsDir(pattern));
  const mode = oneOf(WHERE, 'mode', options.mode ?? 'evalsha', ['evalsha', 'fcall']);
  const namespace = nonEmptyString(WHERE, 'namespace', options.namespace ?? 'chaoslua');
  if (/[{}]/.test(namespace)) throw new RangeError(`${WHERE}: namespace must not contain braces (it sits inside the hash tag), got ${namespace}`);
  const quitOnClose = options.quitOnClose ?? false;
  return (await spec.openReference(redis, { scriptsDir, mode, namespace, quitOnClose, ...(options.variant === undefined ? {} : { variant: options.variant }) })) as ReferenceSubjectOf<P>;
}
