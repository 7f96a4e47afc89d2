import fc from 'fast-check';
import { FAULT_DESCRIPTORS } from '../faults/index.ts';
import type { Schedule } from '../plan/schedule.ts';
import type { ScheduleOptions } from './constraints.ts';

/**
 * The clients' clock offsets, by the enabled fault that draws them (client-clock), with its
 * settings; none when it is not in the set. Drawn last in a schedule (after the race), so a seed
 * draws every other part of every schedule as it did before the fault existed.
 */
export function withClientClocks(options: ScheduleOptions, schedules: fc.Arbitrary<Schedule>): fc.Arbitrary<Schedule> {
  const drawer = FAULT_DESCRIPTORS.find((f) => options.faults.has(f.name) && f.draw.lane === 'client-clocks');
  // Out of the set, not even a chain: the schedules and their shrinking stay exactly as they were.
  if (drawer?.draw.lane !== 'client-clocks') return schedules;
  const { offsets } = drawer.draw;
  return schedules.chain((schedule) =>
    schedule.clients.length === 0
      ? fc.constant(schedule)
      : offsets(schedule.clients.length, options.faultSettings).map((clientClocks) =>
          clientClocks ? { ...schedule, clientClocks } : schedule,
        ),
  );
}
