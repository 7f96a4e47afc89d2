import fc from 'fast-check';
import type { LockInput } from './model.ts';
import {
  type ClientStep,
  leasesOf,
  otherToken,
  outliveLease,
  thinkTime,
  token,
  type SessionContext,
} from '../../pattern.ts';

type Step = ClientStep<LockInput>;
const op = (key: number, input: LockInput): Step => ({ type: 'op', key, input });

/**
 * acquire (retried a few times, or polled every few ms, while someone else holds it), hold (extending),
 * maybe stall past the TTL, release; sometimes the work ends right at the TTL, so the release races
 * the expiry (the moment a release that is not one atomic step goes wrong); sometimes a stray
 * release/extend with another token.
 */
export function lockSession(ctx: SessionContext, attempt: number): fc.Arbitrary<Step[]> {
  const own = token(ctx.client, attempt);
  return fc
    .record({
      key: fc.integer({ min: 0, max: ctx.keys - 1 }),
      ttlMs: fc.constantFrom(...leasesOf(ctx.options)),
      // Pauses before each retried acquire: a short backoff, or a client that waits a while and then
      // polls the lock every few ms (so someone is asking the moment it expires).
      retries: fc.oneof(
        fc.array(fc.integer({ min: 10, max: 80 }), { maxLength: 4 }),
        fc
          .tuple(
            // Clients start together, so a first holder's TTL ends near one of the leases: sometimes
            // start polling just before that.
            fc.oneof(
              fc.integer({ min: 0, max: 400 }),
              fc
                .constantFrom(...leasesOf(ctx.options))
                .chain((ttl) => fc.integer({ min: Math.max(0, ttl - 60), max: ttl })),
            ),
            fc.integer({ min: 3, max: 20 }),
            fc.integer({ min: 4, max: 16 }),
          )
          .map(([wait, every, times]) => [wait, ...Array.from({ length: times }, () => every)]),
      ),
      extends: fc.array(thinkTime<LockInput>(), { maxLength: 2 }),
      // A third of the sessions end their work this long before the TTL runs out (a few ms to a
      // few hundred: the width of a slow round trip, or of a latency fault); the rest think as usual.
      edge: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 300 }) },
      ),
      release: fc.boolean(),
      stray: fc.option(fc.record({ op: fc.constantFrom('release', 'extend'), token: otherToken(ctx) }), { freq: 3 }),
    })
    .chain((s) =>
      outliveLease(ctx, s.ttlMs).map((stall) => {
        const steps: Step[] = [op(s.key, { op: 'acquire', token: own, ttlMs: s.ttlMs })];
        // A holder working to the edge does not poll first: its TTL runs from its one acquire.
        if (s.edge !== null) {
          steps.push({ type: 'pause', ms: Math.max(0, s.ttlMs - s.edge) }, op(s.key, { op: 'release', token: own }));
          return steps;
        }
        for (const ms of s.retries)
          steps.push({ type: 'pause', ms }, op(s.key, { op: 'acquire', token: own, ttlMs: s.ttlMs }));
        for (const pause of s.extends) steps.push(pause, op(s.key, { op: 'extend', token: own, ttlMs: s.ttlMs }));
        steps.push(...(stall as Step[]));
        if (s.release) steps.push(op(s.key, { op: 'release', token: own }));
        if (s.stray?.op === 'release') steps.push(op(s.key, { op: 'release', token: s.stray.token }));
        if (s.stray?.op === 'extend') steps.push(op(s.key, { op: 'extend', token: s.stray.token, ttlMs: s.ttlMs }));
        return steps;
      }),
    );
}
