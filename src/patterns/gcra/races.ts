/**
 * GCRA's critical instant (src/generator/races.ts): a hit reads the theoretical arrival time (TAT)
 * before it moves it on, and the TAT goes stale when another client takes the burst's last place at
 * the same instant. The contender spends the places before the last; then both hit.
 */
import { type RaceSource, setting, lastPlaceRace } from '../../pattern.ts';
import type { GcraInput } from './model.ts';

export const gcraRaces: readonly RaceSource<GcraInput>[] = [
  {
    name: "hit for the burst's last place",
    instant: 'last-place',
    victim: 'hit',
    needs: ['hit'],
    draw: (ctx) => {
      const burst = setting(ctx.options.settings, 'burst');
      const hit: GcraInput = {
        op: 'hit',
        burst,
        rate: setting(ctx.options.settings, 'rate'),
        periodMs: setting(ctx.options.settings, 'period'),
      };
      return lastPlaceRace(ctx, {
        fill: () => Array.from({ length: burst - 1 }, () => hit),
        take: () => hit,
        finish: () => [],
      });
    },
  },
];
