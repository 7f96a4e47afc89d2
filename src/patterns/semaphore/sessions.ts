import fc from 'fast-check';
import type { SemaphoreInput } from './model.ts';
import {
  type ClientStep,
  leasesOf,
  otherToken,
  outliveLease,
  thinkTime,
  token,
  type SessionContext,
} from '../../pattern.ts';

type Step = ClientStep<SemaphoreInput>;
const op = (key: number, input: SemaphoreInput): Step => ({ type: 'op', key, input });

/**
 * One limit per key, whoever asks (the model's "full" is relative to the limit an acquire names):
 * mostly 2, and a mutex (1) and 3 beside it, so that 2-8 clients over 1-4 keys contend for places.
 */
export const limitOfKey = (key: number): number => [2, 1, 3][key % 3];

/**
 * acquire (retried a few times while full), hold (refreshing, sometimes by acquiring again, which
 * renews a live holder), maybe stall past the TTL and then refresh or release as if nothing had
 * happened (the stale holder that must not come back), release; sometimes a stray refresh or
 * release with another attempt's token.
 */
export function semaphoreSession(ctx: SessionContext, attempt: number): fc.Arbitrary<Step[]> {
  const own = token(ctx.client, attempt);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      ttlMs: fc.constantFrom(...leasesOf(ctx.options)),
      retries: fc.array(fc.integer({ min: 10, max: 120 }), { maxLength: 4 }),
      renewals: fc.array(fc.tuple(thinkTime<SemaphoreInput>(), fc.constantFrom('refresh', 'acquire')), {
        maxLength: 3,
      }),
      afterStall: fc.constantFrom('refresh', 'release', 'both'),
      release: fc.boolean(),
      stray: fc.option(fc.record({ op: fc.constantFrom('release', 'refresh'), token: otherToken(ctx) }), { freq: 3 }),
    })
    .chain((s) =>
      outliveLease(ctx, s.ttlMs).map((stall) => {
        const limit = limitOfKey(s.key);
        const acquire = op(s.key, { op: 'acquire', token: own, limit, ttlMs: s.ttlMs });
        const refresh = op(s.key, { op: 'refresh', token: own, ttlMs: s.ttlMs });
        const release = op(s.key, { op: 'release', token: own });
        const steps: Step[] = [acquire];
        for (const ms of s.retries) steps.push({ type: 'pause', ms }, acquire);
        for (const [pause, how] of s.renewals) steps.push(pause, how === 'refresh' ? refresh : acquire);
        steps.push(...(stall as Step[]));
        if (stall.length > 0) {
          if (s.afterStall !== 'release') steps.push(refresh);
          if (s.afterStall !== 'refresh') steps.push(release);
        } else if (s.release) {
          steps.push(release);
        }
        if (s.stray?.op === 'release') steps.push(op(s.key, { op: 'release', token: s.stray.token }));
        if (s.stray?.op === 'refresh') steps.push(op(s.key, { op: 'refresh', token: s.stray.token, ttlMs: s.ttlMs }));
        return steps;
      }),
    );
}
