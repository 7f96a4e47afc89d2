/**
 * The lock's critical instants (src/generator/races.ts): a release and an extend each read the
 * holder before they write, and the holder goes stale when its TTL runs out and a contender
 * acquires. Seed 003's problem 3 is the release's: a GET, then a DEL that deletes the next holder's lock.
 */
import { type RaceSource, leaseEndRace, leasesOf } from '../../pattern.ts';
import type { LockInput } from './model.ts';

const acquire = (token: string, ttlMs: number): LockInput => ({ op: 'acquire', token, ttlMs });
const release = (token: string): LockInput => ({ op: 'release', token });

export const lockRaces: readonly RaceSource<LockInput>[] = [
  {
    name: "release at its TTL's end",
    instant: 'lease-end',
    victim: 'release',
    needs: ['acquire', 'release'],
    draw: (ctx) =>
      leaseEndRace(ctx, {
        leases: leasesOf(ctx.options),
        take: acquire,
        victim: release,
        finish: (token) => [release(token)],
      }),
  },
  {
    name: "extend at its TTL's end",
    instant: 'lease-end',
    victim: 'extend',
    needs: ['acquire', 'extend', 'release'],
    draw: (ctx) =>
      leaseEndRace(ctx, {
        leases: leasesOf(ctx.options),
        take: acquire,
        victim: (token, ttlMs) => ({ op: 'extend', token, ttlMs }),
        finish: (token) => [release(token)],
      }),
  },
];
