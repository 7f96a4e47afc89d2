/** How long the harness waits on an implementation: for one operation, for it to get ready, for one call. */

/** One operation longer than this is recorded as indeterminate (the implementation is slow, not wrong). */
export const OP_TIMEOUT_MS = 10_000;

/** Longest an implementation may take to get ready (a cmd: program's hello, a module's createStore):
 *  it connects and loads scripts first. */
export const HANDSHAKE_TIMEOUT_MS = 30_000;

/** Longest one call may go unanswered before the implementation counts as hung (a finding): above
 *  the runner's own per-operation bound, so the runner records the operation first. */
export const REQUEST_TIMEOUT_MS = OP_TIMEOUT_MS + 2_000;
