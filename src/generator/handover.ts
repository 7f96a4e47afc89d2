import fc from 'fast-check';
import type { ScheduleOptions } from './constraints.ts';
import { aimedFaultArbitrary } from './faults.ts';
import type { ClientStep, FaultStep } from '../plan/schedule.ts';

export interface Staged {
  /** The schedule's keys: one more when a handover was staged (its own). */
  readonly keys: number;
  readonly clients: ClientStep[][];
  /** The hold aimed at the handover, if one was drawn (it goes after the schedule's other faults). */
  readonly aimed: FaultStep[];
}

/**
 * Three runs in four of a pattern that stages a handover (Pattern.handover) begin with one: two of
 * the run's clients, drawn, get the handover's steps before their sessions, on a key of its own (so
 * the holder's first ask is granted, whoever else starts on the run's keys), and the holder's
 * hand-over gets a hold aimed at it. Why staged, not left to the sessions: a race one command wide
 * (a release that reads, then deletes) shows only when the hand-over is contended while it is held,
 * and independent sessions rarely contend at that instant (seen in 4 runs of 40). Drawn after every
 * other part of the schedule, so the rest of a seed's draws stay what they were; a pattern without
 * a handover draws nothing more at all.
 */
export function withHandover(options: ScheduleOptions, keys: number, clients: ClientStep[][]): fc.Arbitrary<Staged> {
  const { handover } = options.pattern;
  const none = fc.constant<Staged>({ keys, clients, aimed: [] });
  const supported = options.operations;
  if (!handover || clients.length < 2 || (supported && !handover.needs.every((op) => supported.has(op)))) return none;
  const pair = fc
    .integer({ min: 0, max: clients.length - 1 })
    .chain((holder) => fc.integer({ min: 0, max: clients.length - 2 }).map((other) => ({ holder, contender: other < holder ? other : other + 1 })));
  const staged = pair.chain(({ holder, contender }) =>
    handover.draw({ holder, contender, key: keys, options, attempt: options.maxSessionsPerClient }).chain((plan) =>
      aimedFaultArbitrary(options, { client: holder, op: plan.aim, leaseMs: plan.leaseMs }).map(
        (aimed): Staged => ({
          keys: keys + 1,
          clients: clients.map((steps, c) => (c === holder ? [...plan.holder, ...steps] : c === contender ? [...plan.contender, ...steps] : steps)),
          aimed,
        }),
      ),
    ),
  );
  return fc.oneof({ weight: 1, arbitrary: none }, { weight: 3, arbitrary: staged });
}
