import fc from 'fast-check';
import type { LockInput } from '../../model/lock.ts';
import type { ClientStep } from '../schedule.ts';
import { otherToken, outliveLease, thinkTime, token, type SessionContext } from './common.ts';

type Step = ClientStep<LockInput>;
const op = (key: number, input: LockInput): Step => ({ type: 'op', key, input });

/** acquire, hold (extending), maybe stall past the TTL, release; sometimes a stray release/extend. */
export function lockSession(ctx: SessionContext, attempt: number): fc.Arbitrary<Step[]> {
  const own = token(ctx.client, attempt);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      ttlMs: fc.constantFrom(...ctx.options.leasesMs),
      extends: fc.array(thinkTime<LockInput>(), { maxLength: 2 }),
      release: fc.boolean(),
      stray: fc.option(fc.record({ op: fc.constantFrom('release', 'extend'), token: otherToken(ctx) }), { freq: 3 }),
    })
    .chain((s) =>
      outliveLease(ctx, s.ttlMs).map((stall) => {
        const steps: Step[] = [op(s.key, { op: 'acquire', token: own, ttlMs: s.ttlMs })];
        for (const pause of s.extends) steps.push(pause, op(s.key, { op: 'extend', token: own, ttlMs: s.ttlMs }));
        steps.push(...(stall as Step[]));
        if (s.release) steps.push(op(s.key, { op: 'release', token: own }));
        if (s.stray?.op === 'release') steps.push(op(s.key, { op: 'release', token: s.stray.token }));
        if (s.stray?.op === 'extend') steps.push(op(s.key, { op: 'extend', token: s.stray.token, ttlMs: s.ttlMs }));
        return steps;
      }),
    );
}
