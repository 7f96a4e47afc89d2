import fc from 'fast-check';
import type { GcraInput } from './model.ts';
import { type ClientStep, type SessionContext, setting } from '../../pattern.ts';

type Step = ClientStep<GcraInput>;

/**
 * Bursts of hits on one key, with pauses of a fraction of an interval to a few intervals between
 * them, so that places are taken faster than they free (refusals) and freed while a client waits
 * (a hit allowed again); with lease-expiry, sometimes a wait long enough for the whole burst to free.
 */
export function gcraSession(ctx: SessionContext): fc.Arbitrary<Step[]> {
  const burst = setting(ctx.options.settings, 'burst');
  const rate = setting(ctx.options.settings, 'rate');
  const periodMs = setting(ctx.options.settings, 'period');
  const interval = Math.max(1, Math.round(periodMs / rate));
  const hit = (key: number): Step => ({ type: 'op', key, input: { op: 'hit', burst, rate, periodMs } });
  const waitOut = ctx.options.faults.has('lease-expiry') ? fc.boolean() : fc.constant(false);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      hits: fc.array(fc.integer({ min: 0, max: 2 * interval }), { minLength: 1, maxLength: 6 }),
      waitOut,
    })
    .map((s) => {
      const steps: Step[] = [];
      if (s.waitOut) steps.push({ type: 'pause', ms: burst * interval + 100 });
      for (const think of s.hits) steps.push({ type: 'pause', ms: think }, hit(s.key));
      return steps;
    });
}
