/**
 * The limiter's critical instant (src/generator/races.ts): a hit reads the window's count before it
 * counts itself, and the count goes stale when another client takes the window's last hit at the
 * same instant. The contender spends the hits before the last; then both hit.
 */
import { type RaceSource, setting, lastPlaceRace } from '../../pattern.ts';
import type { RateLimitInput } from './model.ts';

export const ratelimitRaces: readonly RaceSource<RateLimitInput>[] = [
  {
    name: "hit for the window's last place",
    instant: 'last-place',
    victim: 'hit',
    needs: ['hit'],
    draw: (ctx) => {
      const limit = setting(ctx.options.settings, 'limit');
      const hit: RateLimitInput = { op: 'hit', limit, windowSeconds: setting(ctx.options.settings, 'window') };
      return lastPlaceRace(ctx, {
        fill: () => Array.from({ length: limit - 1 }, () => hit),
        take: () => hit,
        finish: () => [],
      });
    },
  },
];
