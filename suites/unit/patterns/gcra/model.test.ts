/**
 * The GCRA limiter's model (src/patterns/gcra/model.ts) and how the checker judges it: `burst` places,
 * each freed between one emission interval and `burst` intervals after its hit; a blocked hit changes
 * nothing. True GCRA histories (a queue draining one interval at a time) are explained; a burst too many,
 * or a place freed sooner than an interval, is not.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../../src/checker/index.ts';
import { gcra, intervalMs, type GcraInput, type GcraOutput } from '../../../../src/patterns/gcra/model.ts';
import { PATTERNS } from '../../../../src/patterns/index.ts';
import { fault, history, ok, op } from '../../checker/support/ops.ts';

const hit: GcraInput = { op: 'hit', burst: 2, rate: 5, periodMs: 1000 }; // an interval of 200 ms

describe('the gcra model', () => {
  it('takes a place per allowed hit up to the burst, refuses past it without a change, frees each place by its own tag', () => {
    const a = gcra.step(gcra.init(), hit, 1);
    expect(a).toEqual({ state: { kind: 'busy', places: [1] }, output: 1 });
    const b = gcra.step(a.state, hit, 2);
    expect(b.output).toBe(1);
    expect(gcra.step(b.state, hit, 3)).toEqual({ state: b.state, output: 0 });
    expect(gcra.leaseTags!(b.state)).toEqual([1, 2]);
    expect(gcra.leaseTag(b.state)).toBe(1);
    expect(gcra.expire(b.state, 9)).toBe(b.state);
    expect(gcra.expire(gcra.expire(b.state, 1), 2)).toEqual(gcra.init());
    // A hit run twice (a resend after a cut link) took two places under one tag: each expiry frees one.
    const twice = gcra.step(a.state, hit, 1).state;
    expect(gcra.expire(twice, 1)).toEqual(a.state);
    expect(gcra.leaseTag(gcra.init())).toBeNull();
    expect(intervalMs(hit)).toBe(200);
    expect(gcra.expiryMs(hit)).toBe(200);
    expect(gcra.expiryRangeMs!(hit)).toEqual([200, 400]);
    expect(() => gcra.step(gcra.init(), { ...hit, burst: 0 }, 1)).toThrow();
  });

  it('reads and describes its answers and states', () => {
    expect(gcra.outputMatches(1, 1)).toBe(true);
    expect(gcra.outputMatches(1, '1')).toBe(true);
    expect(gcra.outputMatches(0, 1)).toBe(false);
    expect(gcra.describeInput(hit)).toBe('hit(burst=2, rate=5/1000ms)');
    expect([gcra.describeOutput(1), gcra.describeOutput(0)]).toEqual(['1', '0']);
    expect(gcra.describeState(gcra.init())).toBe('idle');
    expect(gcra.describeState({ kind: 'busy', places: [4, 7] })).toBe('2 place(s) taken (by ops 4, 7)');
    expect(gcra.hashState({ kind: 'busy', places: [4, 7] })).toBe('4,7');
    expect(gcra.hashState(gcra.init())).toBe('i');
  });
});

describe('the checker on GCRA histories', () => {
  const at = (client: number, t: number, output: GcraOutput) =>
    op<GcraInput, GcraOutput>(client, hit, t, t + 2, ok(output));

  it('explains a queue that drains one interval at a time: a burst, a refusal, one more each interval', () => {
    const ops = [at(1, 0, 1), at(2, 5, 1), at(3, 10, 0), at(1, 205, 1), at(2, 215, 0), at(3, 405, 1)];
    expect(check(history(ops), PATTERNS.gcra, { eps: 5, minimise: false }).verdict).toBe('ok');
  });

  it('names burst-respected for a hit let through with every place taken', () => {
    const result = check(history([at(1, 0, 1), at(2, 5, 1), at(3, 10, 1)]), PATTERNS.gcra, { eps: 5, minimise: false });
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('burst-respected');
    expect(result.violations[0].message).toMatch(/with all 2 places taken/);
  });

  it('refuses a place freed sooner than one interval after its hit', () => {
    const result = check(history([at(1, 0, 1), at(2, 5, 1), at(3, 100, 1)]), PATTERNS.gcra, {
      eps: 5,
      minimise: false,
    });
    expect(result.verdict).toBe('illegal');
  });

  it('explains a hit resent after a cut link, whose two places end one interval apart (soak seed 20261205, run 238)', () => {
    // Burst 3, interval 200 ms, the times of the soak's history: the first hit's reply was lost and
    // the client resent it, so three places were taken by 943 ms and the hit at 992 was refused. Its
    // two places end one after the other, so the hit at 1218 found the burst full again.
    const three: GcraInput = { op: 'hit', burst: 3, rate: 5, periodMs: 1000 };
    const h = (client: number, from: number, to: number, output: GcraOutput) =>
      op<GcraInput, GcraOutput>(client, three, from, to, ok(output));
    const ops = [
      h(1, 831.9, 941.9, 1),
      h(1, 942.4, 943.1, 1),
      h(3, 992.1, 992.9, 0),
      h(3, 1097.3, 1098.4, 1),
      h(3, 1218.0, 1218.5, 0),
    ];
    const cut = { ...fault('reply-loss', 734.6, 833.0, false), cutsConnections: true };
    const result = check(history(ops, [cut]), PATTERNS.gcra, { minimise: false });
    expect(result.violations).toEqual([]);
    expect(result.verdict).toBe('ok');
    expect(result.duplicateEffects).toEqual({ hit: [ops[0].id] });
  });

  it('refuses a refusal no taken place explains (model-conformance)', () => {
    const result = check(history([at(1, 0, 0)]), PATTERNS.gcra, { eps: 5, minimise: false });
    expect(result.verdict).toBe('illegal');
    expect(result.violations[0].invariant).toBe('model-conformance');
  });
});
