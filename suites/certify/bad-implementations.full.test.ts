import { afterAll, describe, it } from 'vitest';
import { removeReportRoots } from './fixtures/process/job.ts';
import { errorsOnlyCases, expectNeverCertified } from './support/errors-only.ts';

// bad-implementations.test.ts's first rule for the other two patterns: an implementation whose every
// operation errors is never certified, whatever its kind.

afterAll(() => removeReportRoots());

describe('an implementation whose every operation errors is never certified', () => {
  it.each(errorsOnlyCases(['lock', 'ratelimit']))('%s', (_, pattern, open) => expectNeverCertified(pattern, open(pattern)));
});
