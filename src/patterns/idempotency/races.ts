/**
 * The idempotency store's critical instants (src/generator/races.ts). A register reads whether the
 * key is taken before it takes it: another request registering at the same instant (the key's one
 * place). Complete, release and renew read the owner before they write: the owner goes stale when
 * its lease runs out and another request registers, and a write made on the stale read stores a
 * response over the new owner's record, deletes it, or extends it.
 */
import { type RaceSource, type RaceContext, lastPlaceRace, leaseEndRace, leasesOf, ttlsOf } from '../../pattern.ts';
import type { IdempotencyInput } from './model.ts';

const register = (owner: string, leaseMs: number): IdempotencyInput => ({
  op: 'register',
  fingerprint: 'fp-race',
  owner,
  leaseMs,
});
/** A completion keeping its response the job's first completed TTL (`ttl`). */
const complete = (owner: string, ctx: RaceContext): IdempotencyInput => ({
  op: 'complete',
  owner,
  status: '200',
  body: `resp-${owner}`,
  ttlMs: ttlsOf(ctx.options)[0],
});

/** A race at the holder's lease's end, `victim` its racing operation; the contender completes once it stops asking. */
const atLeaseEnd = (
  victim: 'complete' | 'release' | 'renew',
  input: (owner: string, leaseMs: number, ctx: RaceContext) => IdempotencyInput,
): RaceSource<IdempotencyInput> => ({
  name: `${victim} at its lease's end`,
  instant: 'lease-end',
  victim,
  needs: [...new Set(['register', victim, 'complete'])],
  draw: (ctx) =>
    leaseEndRace(ctx, {
      leases: leasesOf(ctx.options),
      take: register,
      victim: (owner, leaseMs) => input(owner, leaseMs, ctx),
      finish: (owner) => [complete(owner, ctx)],
    }),
});

export const idempotencyRaces: readonly RaceSource<IdempotencyInput>[] = [
  {
    name: "register for the key's one place",
    instant: 'last-place',
    victim: 'register',
    needs: ['register', 'complete'],
    // A register refused: a client that retries it, and takes the contender's pending record with
    // its own fingerprint for its own registration, runs the request twice.
    refusable: true,
    // A handler works a while before completing: a refused racer's retry then finds the contender's record still pending.
    draw: (ctx) =>
      lastPlaceRace(ctx, {
        leases: leasesOf(ctx.options),
        fill: () => [],
        take: register,
        finish: (owner) => [complete(owner, ctx)],
        workMs: [80, 300],
      }),
  },
  atLeaseEnd('complete', (owner, _leaseMs, ctx) => complete(owner, ctx)),
  atLeaseEnd('release', (owner) => ({ op: 'release', owner })),
  atLeaseEnd('renew', (owner, leaseMs) => ({ op: 'renew', owner, leaseMs })),
];
