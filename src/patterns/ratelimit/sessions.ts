import fc from 'fast-check';
import type { RateLimitInput } from './model.ts';
import { type ClientStep, type SessionContext, setting } from '../../pattern.ts';

type Step = ClientStep<RateLimitInput>;

/**
 * A burst of hits on one key, sometimes waiting out the window (lease-expiry) before more. The
 * limit and the window (whole seconds: EXPIRE) are the job's settings (./settings.ts), the same for
 * every key and client of a job, so every client competes for the same budget and a key's limit
 * never changes within a window (the model's premise). Nothing else is drawn from them: with the
 * defaults a seed draws exactly the schedule it drew when they were constants.
 */
export function ratelimitSession(ctx: SessionContext): fc.Arbitrary<Step[]> {
  const limit = setting(ctx.options.settings, 'limit');
  const windowSeconds = setting(ctx.options.settings, 'window');
  const hit = (key: number): Step => ({ type: 'op', key, input: { op: 'hit', limit, windowSeconds } });
  const waitOut = ctx.options.faults.has('lease-expiry') ? fc.boolean() : fc.constant(false);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      hits: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 5 }),
      waitOut,
    })
    .map((s) => {
      const steps: Step[] = [];
      if (s.waitOut) steps.push({ type: 'pause', ms: windowSeconds * 1000 + 100 });
      for (const think of s.hits) steps.push({ type: 'pause', ms: think }, hit(s.key));
      return steps;
    });
}
