/**
 * Races at critical instants, staged by construction. A read-then-write slip (read the state,
 * decide in the client, write) shows only when the state changes between the read and the write,
 * and independent sessions rarely change it at that instant (a lock's holder releasing while a
 * contender asks: 4 runs in 40). So each pattern names its critical instants (Pattern.races): for
 * each operation that reads before it writes, the instant its read can go stale at — a lease or TTL
 * running out (`lease-end`), another client taking the last place (`last-place`) — and the steps
 * that put a contender just after it. Three runs in four stage one of them, drawn among those the
 * implementation's operations allow, on a key of its own; the holder's racing operation gets a hold
 * aimed at it (src/faults/commands.ts) that keeps its read's answer until the contender is in.
 * Drawn after every other part of the schedule, so a seed's other draws stay what they were.
 */
import fc from 'fast-check';
import type { ScheduleOptions } from './constraints.ts';
import { aimedFaultArbitrary } from './faults.ts';
import type { ClientStep, FaultStep, StagedRace } from '../plan/schedule.ts';
import type { RaceSource } from './sessions/common.ts';

export type { RaceSource } from './sessions/common.ts';

export interface Staged {
  /** The schedule's keys: one more when a race was staged (its own). */
  readonly keys: number;
  readonly clients: ClientStep[][];
  /** The hold aimed at the race, if one was drawn (it goes after the schedule's other faults). */
  readonly aimed: FaultStep[];
  readonly race?: StagedRace;
}

/** The races an implementation with these operations can run (all of them when it has every one). */
export const racesFor = (races: readonly RaceSource[], supported: ReadonlySet<string> | undefined): RaceSource[] =>
  races.filter((race) => supported === undefined || race.needs.every((op) => supported.has(op)));

export function withRace(options: ScheduleOptions, keys: number, clients: ClientStep[][]): fc.Arbitrary<Staged> {
  const races = racesFor(options.pattern.races ?? [], options.operations);
  const none = fc.constant<Staged>({ keys, clients, aimed: [] });
  if (races.length === 0 || clients.length < 2) return none;
  const pair = fc
    .integer({ min: 0, max: clients.length - 1 })
    .chain((holder) =>
      fc
        .integer({ min: 0, max: clients.length - 2 })
        .map((other) => ({ holder, contender: other < holder ? other : other + 1 })),
    );
  const staged = fc.tuple(pair, fc.integer({ min: 0, max: races.length - 1 })).chain(([{ holder, contender }, which]) =>
    races[which].draw({ holder, contender, key: keys, options, attempt: options.maxSessionsPerClient }).chain((race) =>
      aimedFaultArbitrary(options, {
        client: holder,
        op: race.aim,
        leaseMs: race.leaseMs,
        instant: races[which].instant,
        refusable: races[which].refusable,
      }).map(
        (aimed): Staged => ({
          keys: keys + 1,
          clients: clients.map((steps, c) =>
            c === holder ? [...race.holder, ...steps] : c === contender ? [...race.contender, ...steps] : steps,
          ),
          aimed,
          race: { name: races[which].name, instant: races[which].instant, key: keys, holder, op: race.aim, contender },
        }),
      ),
    ),
  );
  return fc.oneof({ weight: 1, arbitrary: none }, { weight: 3, arbitrary: staged });
}
