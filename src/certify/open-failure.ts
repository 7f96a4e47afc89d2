/**
 * The implementation could not be opened on a running cluster (Redis refused to load a script, a
 * module's createStore threw or never resolved): not a usage error, a finding. The job still writes
 * its report, certificate and JUnit file, and is not certified.
 */
export class OpenFailure extends Error {
  override readonly name = 'OpenFailure';
  constructor(
    /** The finding's name, e.g. `script-load`, `module-create-store`. */
    readonly finding: string,
    message: string,
  ) {
    super(message);
  }
}
