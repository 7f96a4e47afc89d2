// redlock 5.0.0-beta.2 (https://github.com/mike-marcacci/node-redlock) as a chaoslua module: the
// lock pattern, written the way an application uses the library, declaring what it answers
// (docs/module-contract.md). Plain JavaScript, so that the repository typechecks without this
// folder's own node_modules.
//
// certify: chaoslua certify --impl module:examples/third-party/redlock/store.mjs --pattern lock
import Redlock, { ExecutionError, ResourceLockedError } from 'redlock';

/**
 * redlock makes its own random lock value and hands back a `Lock`: that object, not the harness's
 * token, is what releases or extends. So acquire hands out a holder handle, and every answer is a
 * boolean: the library turns "absent" and "another holder" into one error. An acquire that fails
 * gives back whatever it took: redlock runs its release script with the attempt's own value before
 * it throws (an acquire whose first execution took the lock, and whose resend after a cut connection
 * then found it taken, frees it again inside the same call), so it is declared `givesBack`.
 */
export const capabilities = { lock: { acquire: { level: 'boolean', handle: true, givesBack: true }, release: 'boolean', extend: 'boolean' } };

// No `keys` export: redlock writes the resource name it is given, i.e. the harness's key itself.

/**
 * Why an operation failed, from redlock's ExecutionError: refused by the lock's state (every vote
 * against was a ResourceLockedError: the script ran and answered 0) or not known. With one client
 * there is one vote per attempt; a Redis or connection error must stay an error (indeterminate or
 * refused, as the harness classifies it), not become a "false" the script never said. On several
 * masters a release or extend that failed its quorum may still have acted on the masters that voted
 * for it: that is not "nothing changed" either, so it stays an error too (`partial`).
 */
async function refusedByState(error, partial = false) {
  if (!(error instanceof ExecutionError)) throw error;
  // An extend of a Lock whose validity has passed on the client's clock (counted from before its
  // acquire) is refused before any command is sent: no vote, nothing written.
  if (error.attempts.length === 0) return { refused: "redlock: the Lock's validity has passed on the client's clock" };
  const stats = await error.attempts[error.attempts.length - 1];
  const against = [...stats.votesAgainst.values()];
  const other = against.find((e) => !(e instanceof ResourceLockedError));
  if (other) throw other;
  if (partial && stats.votesFor.size > 0) throw new Error(`redlock: no quorum, but ${stats.votesFor.size} of ${stats.membershipSize} masters acted`);
  return false;
}

export function createStore(redis, options) {
  if (options.pattern !== 'lock') throw new Error(`redlock is a lock, not a ${options.pattern}`);
  // On a Redis Cluster, one client (the harness's Cluster): redlock's quorum is 1 of 1, i.e. a
  // single-instance lock on the key's master. On independent masters (--topology masters), the
  // deployment redlock's README shows: `new Redlock([redisA, redisB, redisC, ...])`, one client per
  // master, quorum a majority. retryCount 0: one attempt, no polling (the sessions poll themselves).
  // The other settings stay the library's defaults (driftFactor 0.01), as a team would leave them.
  const redlock = new Redlock(options.masters ?? [redis], { retryCount: 0 });
  return {
    async acquire(key, token, ttlMs) {
      try {
        // The handle is a box around the current Lock: extend returns a new Lock (and invalidates
        // the old one), and only acquire may hand out a handle, so extend swaps the box's content.
        return { answer: true, handle: { lock: await redlock.acquire([key], ttlMs) } };
      } catch (error) {
        // Refused by the lock's state, and its own value released on the way out (see capabilities).
        return { answer: await refusedByState(error), gaveBack: true };
      }
    },
    async release(key, token, held) {
      if (held === undefined) return false; // this holder never acquired: nothing of its own to release
      try {
        await held.lock.release();
        return true;
      } catch (error) {
        return refusedByState(error, true);
      }
    },
    async extend(key, token, ttlMs, held) {
      if (held === undefined) return false;
      try {
        held.lock = await held.lock.extend(ttlMs);
        return true;
      } catch (error) {
        return refusedByState(error, true);
      }
    },
  };
}
