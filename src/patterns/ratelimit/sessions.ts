import fc from 'fast-check';
import type { RateLimitInput } from './model.ts';
import type { ClientStep } from '../../plan/schedule.ts';
import type { SessionContext } from '../../generator/sessions/common.ts';

type Step = ClientStep<RateLimitInput>;

/** Fixed per key so every client competes for the same budget. Windows are whole seconds (EXPIRE). */
export const LIMIT = 3;
export const WINDOW_SECONDS = 1;

/** A burst of hits on one key, sometimes waiting out the window (lease-expiry) before more. */
export function ratelimitSession(ctx: SessionContext): fc.Arbitrary<Step[]> {
  const hit = (key: number): Step => ({ type: 'op', key, input: { op: 'hit', limit: LIMIT, windowSeconds: WINDOW_SECONDS } });
  const waitOut = ctx.options.faults.has('lease-expiry') ? fc.boolean() : fc.constant(false);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      hits: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 5 }),
      waitOut,
    })
    .map((s) => {
      const steps: Step[] = [];
      if (s.waitOut) steps.push({ type: 'pause', ms: WINDOW_SECONDS * 1000 + 100 });
      for (const think of s.hits) steps.push({ type: 'pause', ms: think }, hit(s.key));
      return steps;
    });
}
