/**
 * The semaphore's critical instants (src/generator/races.ts). An acquire counts the live holders
 * before it adds one: another client taking the last place at the same instant. A refresh and a
 * release read the holder before they write: the holder goes stale when its lease runs out and a
 * contender takes the place it held.
 */
import { type RaceSource, lastPlaceRace, leaseEndRace, leasesOf } from '../../pattern.ts';
import type { SemaphoreInput } from './model.ts';
import { limitOfKey } from './sessions.ts';

const acquire =
  (limit: number) =>
  (token: string, ttlMs: number): SemaphoreInput => ({ op: 'acquire', token, limit, ttlMs });
const release = (token: string): SemaphoreInput => ({ op: 'release', token });

/**
 * A lease-end race on a key of one place, `victim` the holder's racing operation. The contender
 * asks with a refresh, then an acquire: once it holds the place both answer 1 (an acquire renews a
 * live holder), so only a refresh shows a place taken from under it, and only before the next
 * acquire takes it again.
 */
const atLeaseEnd = (
  victim: 'refresh' | 'release',
  input: (token: string, ttlMs: number) => SemaphoreInput,
): RaceSource<SemaphoreInput> => ({
  name: `${victim} at its lease's end`,
  instant: 'lease-end',
  victim,
  needs: ['acquire', 'refresh', 'release'],
  draw: (ctx) =>
    leaseEndRace(ctx, {
      leases: leasesOf(ctx.options),
      take: acquire(1),
      victim: input,
      ask: (token, ttlMs) => [{ op: 'refresh', token, ttlMs }, acquire(1)(token, ttlMs)],
      finish: (token) => [release(token)],
    }),
});

export const semaphoreRaces: readonly RaceSource<SemaphoreInput>[] = [
  {
    name: 'acquire for the last place',
    instant: 'last-place',
    victim: 'acquire',
    needs: ['acquire', 'release'],
    draw: (ctx) => {
      // One limit per key, as the sessions keep it: the contender fills the places before the last.
      const limit = limitOfKey(ctx.key);
      return lastPlaceRace(ctx, {
        leases: leasesOf(ctx.options),
        fill: (fillers, ttlMs) => fillers.slice(0, limit - 1).map((token) => acquire(limit)(token, ttlMs)),
        take: acquire(limit),
        finish: (token) => [release(token)],
      });
    },
  },
  atLeaseEnd('refresh', (token, ttlMs) => ({ op: 'refresh', token, ttlMs })),
  atLeaseEnd('release', (token) => release(token)),
];
