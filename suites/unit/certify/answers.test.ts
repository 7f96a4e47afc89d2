import { describe, expect, it } from 'vitest';
import { answerShares, answersText, barelyWitnessed } from '../../../src/certify/answers.ts';
import { junitXml } from '../../../src/report/junit.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const tally = (op: string, ok: number, fail: number, info: number) => ({
  op,
  issued: ok + fail + info,
  ok,
  fail,
  info,
});

describe('answer counts', () => {
  it('shares are each outcome over issued, to 3 decimals, and 0 for an operation never issued', () => {
    expect(answerShares(tally('release', 1, 0, 2))).toEqual({ ok: 0.333, fail: 0, info: 0.667 });
    expect(answerShares(tally('extend', 0, 0, 0))).toEqual({ ok: 0, fail: 0, info: 0 });
    expect(answersText(tally('release', 10, 0, 30))).toBe(
      'release 40: 10 ok (25%) · 0 fail (0%) · 30 indeterminate (75%)',
    );
  });

  it('an invariant is barely witnessed when an operation witnessing it answered at least half indeterminate', () => {
    const ops = [tally('acquire', 90, 0, 10), tally('release', 0, 0, 358), tally('extend', 115, 0, 178)];
    expect(barelyWitnessed(PATTERNS.lock, 'one-holder', ops)).toBeUndefined();
    expect(barelyWitnessed(PATTERNS.lock, 'no-stale-release', ops)).toBe(
      'barely witnessed: 358 of 358 release answers indeterminate (100%), 178 of 293 extend answers indeterminate (61%)',
    );
    // model-conformance is witnessed by every operation.
    expect(barelyWitnessed(PATTERNS.lock, 'model-conformance', [tally('acquire', 5, 0, 5)])).toBe(
      'barely witnessed: 5 of 10 acquire answers indeterminate (50%)',
    );
    expect(
      barelyWitnessed(PATTERNS.lock, 'model-conformance', [tally('acquire', 6, 0, 5), tally('release', 0, 0, 0)]),
    ).toBeUndefined();
  });

  it('junit.xml carries them as suite properties', () => {
    const xml = junitXml('s', [{ name: 'one-holder', passed: true }], 1, {
      'answers.release': 'release 4: 1 ok (25%) · 0 fail (0%) · 3 indeterminate (75%)',
    });
    expect(xml).toContain(
      '    <properties>\n      <property name="answers.release" value="release 4: 1 ok (25%) · 0 fail (0%) · 3 indeterminate (75%)"/>\n    </properties>\n    <testcase',
    );
  });
});
