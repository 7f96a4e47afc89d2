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

/** Bad input: printed as one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
