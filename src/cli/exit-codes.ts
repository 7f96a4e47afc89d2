/** The CLI's exit codes (DESIGN.md, "Certifying an implementation"). */
export const EXIT = {
  ok: 0,
  /** Not certified: a violation, or the implementation crashed, hung or answered garbage. */
  failed: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** Environment failure: Redis or Toxiproxy could not start. */
  environment: 3,
} as const;

/**
 * A job's exit code: a job the environment ended is exit 3, unless a run it finished had already
 * failed (a violation found is a verdict, whatever happened after it).
 */
export function jobExitCode(result: {
  readonly passed: boolean;
  readonly incomplete: boolean;
  readonly outcome: { readonly failure?: unknown };
}): number {
  if (result.passed) return EXIT.ok;
  return result.incomplete && !result.outcome.failure ? EXIT.environment : EXIT.failed;
}

/** Bad input: printed as one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
