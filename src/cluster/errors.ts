/** Redis or Toxiproxy could not be started or would not become ready: the CLI's exit code 3. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

/** A cluster operation that cannot be done in this state or on this backend (e.g. a destructive
 *  fault on an external cluster without --allow-destructive). */
export class ClusterUsageError extends Error {
  override readonly name = 'ClusterUsageError';
}
