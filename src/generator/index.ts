import fc from 'fast-check';
import { scheduleOptions, type ScheduleConstraints, type ScheduleOptions } from './constraints.ts';
import { faultsArbitrary, networkArbitrary } from './faults.ts';
import type { ClientStep, Schedule } from './schedule.ts';
import type { SessionContext } from './sessions/common.ts';
import { idempotencySession } from './sessions/idempotency.ts';
import { lockSession } from './sessions/lock.ts';
import { ratelimitSession } from './sessions/ratelimit.ts';

export * from './schedule.ts';
export { FAULT_NAMES, PARTITION_FAULT_NAMES, parseFaultList, scheduleOptions, type FaultName, type ScheduleConstraints, type ScheduleOptions } from './constraints.ts';

function session(ctx: SessionContext, attempt: number): fc.Arbitrary<ClientStep[]> {
  switch (ctx.options.pattern) {
    case 'idempotency':
      return idempotencySession(ctx, attempt) as fc.Arbitrary<ClientStep[]>;
    case 'lock':
      return lockSession(ctx, attempt) as fc.Arbitrary<ClientStep[]>;
    case 'ratelimit':
      return ratelimitSession(ctx) as fc.Arbitrary<ClientStep[]>;
  }
}

/** One client's steps: a few sessions back to back, each under its own attempt token. */
function clientSteps(ctx: SessionContext): fc.Arbitrary<ClientStep[]> {
  const sessions = Array.from({ length: ctx.options.maxSessionsPerClient }, (_, attempt) => session(ctx, attempt));
  return fc
    .integer({ min: 1, max: ctx.options.maxSessionsPerClient })
    .chain((n) => fc.tuple(...sessions.slice(0, n)))
    .map((all) => all.flat());
}

/** Roughly how long a client's steps take with no faults: pauses plus ~2 ms per operation. */
export function expectedSpanMs(steps: readonly ClientStep[]): number {
  return steps.reduce((ms, s) => ms + (s.type === 'op' ? 2 : s.ms), 0);
}

/**
 * Schedules of concurrent sessions over few keys (so they collide), with nemesis faults placed
 * within the span the clients are expected to take.
 */
export function scheduleArbitrary(constraints: ScheduleConstraints = {}): fc.Arbitrary<Schedule> {
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
          return fc.tuple(faultsArbitrary(options, keys, horizon), networkArbitrary(options)).map(
            ([faults, network]): Schedule => ({ pattern: options.pattern, keys, clients: perClient, faults, ...(network ? { network } : {}) }),
          );
        }),
    );
}
