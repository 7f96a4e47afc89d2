import { afterAll, describe, it } from 'vitest';
import { removeReportRoots } from './fixtures/process/job.ts';
import { ERRORS_ONLY_KINDS, errorsOnlyCases, expectNeverCertified } from './support/errors-only.ts';

// bad-implementations.test.ts's first rule for the other two patterns: an implementation whose every
// operation errors is never certified, whatever its kind.

afterAll(() => removeReportRoots());

describe('an implementation whose every operation errors is never certified', () => {
  it.each(errorsOnlyCases(['lock', 'ratelimit']))('%s', (_, pattern, open) =>
    expectNeverCertified(pattern, open(pattern)),
  );
  const moduleKind = ERRORS_ONLY_KINDS.filter(([kind]) => kind.startsWith('module:'));
  it.each(errorsOnlyCases(['idempotency'], moduleKind))('%s', (_, pattern, open) =>
    expectNeverCertified(pattern, open(pattern)),
  );
});
