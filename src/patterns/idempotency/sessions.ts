import fc from 'fast-check';
import type { IdempotencyInput } from './model.ts';
import {
  type ClientStep,
  leasesOf,
  ttlsOf,
  otherToken,
  outliveLease,
  thinkTime,
  token,
  type SessionContext,
} from '../../pattern.ts';

type Step = ClientStep<IdempotencyInput>;
const op = (key: number, input: IdempotencyInput): Step => ({ type: 'op', key, input });

/**
 * One request as an API would handle it: register, work (with heartbeats), then complete or
 * release or abandon; sometimes the worker stalls past its lease first, and sometimes a stray
 * operation with a stale or foreign owner arrives (a retried old worker, a confused client).
 */
export function idempotencySession(ctx: SessionContext, attempt: number): fc.Arbitrary<Step[]> {
  const owner = token(ctx.client, attempt);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      // Mostly the key's own request body; sometimes a different one, to exercise conflicts.
      fingerprint: fc.oneof(
        { weight: 4, arbitrary: fc.constant('same') },
        { weight: 1, arbitrary: fc.constant(`other-${owner}`) },
      ),
      leaseMs: fc.constantFrom(...leasesOf(ctx.options)),
      heartbeats: fc.array(thinkTime<IdempotencyInput>(), { maxLength: 2 }),
      end: fc.constantFrom('complete', 'complete', 'release', 'abandon'),
      ttlMs: fc.constantFrom(...ttlsOf(ctx.options)),
      // After a complete: a heartbeat timer that fires once more (not cancelled in time), or a
      // cleanup that releases unconditionally (a release in a finally block).
      after: fc.constantFrom('nothing', 'late-heartbeat', 'cleanup-release'),
      stray: fc.option(fc.record({ op: fc.constantFrom('complete', 'release', 'renew'), owner: otherToken(ctx) }), {
        freq: 3,
      }),
    })
    .chain((s) =>
      outliveLease(ctx, s.leaseMs).map((stall) => {
        const fp = s.fingerprint === 'same' ? `fp-k${s.key}` : s.fingerprint;
        const steps: Step[] = [op(s.key, { op: 'register', fingerprint: fp, owner, leaseMs: s.leaseMs })];
        for (const pause of s.heartbeats) steps.push(pause, op(s.key, { op: 'renew', owner, leaseMs: s.leaseMs }));
        steps.push(...(stall as Step[])); // stalls are pauses/freezes, never ops
        if (s.end === 'complete')
          steps.push(op(s.key, { op: 'complete', owner, status: '200', body: `resp-${owner}`, ttlMs: s.ttlMs }));
        if (s.end === 'complete' && s.after === 'late-heartbeat')
          steps.push(op(s.key, { op: 'renew', owner, leaseMs: s.leaseMs }));
        if (s.end === 'complete' && s.after === 'cleanup-release') steps.push(op(s.key, { op: 'release', owner }));
        if (s.end === 'release') steps.push(op(s.key, { op: 'release', owner }));
        if (s.stray) {
          const o = s.stray.owner;
          if (s.stray.op === 'complete')
            steps.push(op(s.key, { op: 'complete', owner: o, status: '200', body: `resp-${o}`, ttlMs: s.ttlMs }));
          else if (s.stray.op === 'release') steps.push(op(s.key, { op: 'release', owner: o }));
          else steps.push(op(s.key, { op: 'renew', owner: o, leaseMs: s.leaseMs }));
        }
        return steps;
      }),
    );
}
