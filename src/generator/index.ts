import fc from 'fast-check';
import { scheduleOptions, type ScheduleConstraints, type ScheduleOptions } from './constraints.ts';
import { faultsArbitrary, networkArbitrary } from './faults.ts';
import { withRace } from './races.ts';
import { withClientClocks } from './client-clocks.ts';
import { expectedSpanMs, withLateLooks } from './late-looks.ts';
import type { ClientStep, Schedule } from '../plan/schedule.ts';
import type { SessionContext } from './sessions/common.ts';

export * from '../plan/schedule.ts';
export type { SessionSource } from './source.ts';
export type { RaceSource } from './races.ts';
export {
  FAULT_NAMES,
  PARTITION_FAULT_NAMES,
  parseFaultList,
  scheduleOptions,
  type FaultName,
  type ScheduleConstraints,
  type ScheduleOptions,
} from './constraints.ts';

/** A session's context, with the generator's whole options (which name the pattern). */
type ClientContext = SessionContext & { readonly options: ScheduleOptions };

/** One session of the pattern's own shape (its `session`: src/patterns/<name>/sessions.ts). */
function session(ctx: ClientContext, attempt: number): fc.Arbitrary<ClientStep[]> {
  const drawn: fc.Arbitrary<ClientStep[]> = ctx.options.pattern.session(ctx, attempt);
  const supported = ctx.options.operations;
  // An implementation without some operations never gets them: the session keeps its shape (its
  // pauses too) with those steps left out. No restriction, no map: the draws stay as they were.
  if (supported === undefined) return drawn;
  return drawn.map((steps) => steps.filter((s) => s.type !== 'op' || supported.has((s.input as { op: string }).op)));
}

/** One client's steps: a few sessions back to back, each under its own attempt token. */
function clientSteps(ctx: ClientContext): fc.Arbitrary<ClientStep[]> {
  const sessions = Array.from({ length: ctx.options.maxSessionsPerClient }, (_, attempt) => session(ctx, attempt));
  return fc
    .integer({ min: 1, max: ctx.options.maxSessionsPerClient })
    .chain((n) => fc.tuple(...sessions.slice(0, n)))
    .map((all) => all.flat());
}

export { expectedSpanMs } from './late-looks.ts';

/**
 * Schedules of concurrent sessions over few keys (so they collide), with nemesis faults placed
 * within the span the clients are expected to take.
 */
export function scheduleArbitrary(constraints: ScheduleConstraints): fc.Arbitrary<Schedule> {
  const options: ScheduleOptions = scheduleOptions(constraints);
  return fc
    .record({
      clients: fc.integer({ min: options.clients[0], max: options.clients[1] }),
      keys: fc.integer({ min: options.keys[0], max: options.keys[1] }),
    })
    .chain(({ clients, keys }) =>
      fc
        .tuple(...Array.from({ length: clients }, (_, client) => clientSteps({ client, clients, keys, options })))
        .chain((perClient) => {
          const horizon = Math.max(...perClient.map(expectedSpanMs));
          return fc
            .tuple(faultsArbitrary(options, keys, horizon), networkArbitrary(options))
            .chain(([faults, network]) =>
              withClientClocks(
                options,
                withRace(options, keys, perClient).map(
                  ({ keys: stagedKeys, clients: staged, aimed, race }): Schedule => ({
                    pattern: options.pattern.name,
                    keys: stagedKeys,
                    clients: withLateLooks(staged, faults, options.nodeTimeoutMs),
                    // An aimed hold last, out of time order: it waits for its operation, not for an instant.
                    faults: [...faults, ...aimed],
                    ...(network ? { network } : {}),
                    ...(race ? { race } : {}),
                  }),
                ),
              ),
            );
        }),
    );
}
