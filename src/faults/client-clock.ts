import fc from 'fast-check';
import { defineFault } from './types.ts';

/** The client clock's settings by name (`--set clock-skew=50 --set clock-step=2000`). */
export const CLOCK_SKEW = 'clock-skew';
export const CLOCK_STEP = 'clock-step';

/** In how many runs one client's clock is stepped (the rest: NTP's skew only). */
const STEPPED_WEIGHT = 1;
const UNSTEPPED_WEIGHT = 2;

/**
 * Each logical client's clock offset for one run: every client within ±skew (hosts kept by NTP
 * disagree by tens of milliseconds) and, in a third of the runs, one client stepped by ±step on top
 * (a VM migrated, an operator setting the time by hand). Undefined when every offset is 0.
 */
export function clientClockOffsets(
  clients: number,
  skewMs: number,
  stepMs: number,
): fc.Arbitrary<readonly number[] | undefined> {
  const each = fc.array(fc.integer({ min: -skewMs, max: skewMs }), { minLength: clients, maxLength: clients });
  const stepped =
    stepMs === 0
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: UNSTEPPED_WEIGHT, arbitrary: fc.constant(undefined) },
          {
            weight: STEPPED_WEIGHT,
            arbitrary: fc.record({ client: fc.integer({ min: 0, max: clients - 1 }), sign: fc.constantFrom(-1, 1) }),
          },
        );
  return fc.tuple(each, stepped).map(([offsets, step]) => {
    const out = [...offsets];
    if (step) out[step.client] += step.sign * stepMs;
    // -0 and 0 are one offset; a run whose clocks all agree carries none.
    return out.every((ms) => ms === 0) ? undefined : out.map((ms) => ms + 0);
  });
}

/**
 * The clients' clocks disagree: each logical client runs the whole run under its own wall-clock
 * offset. It reaches what the implementation reads of the clock in the client (Date.now() in a
 * module, the C library's clock in a program started under the clock preload), never Redis's own
 * TIME or expiry. An implementation that decides on a client's clock and breaks an invariant under
 * it is wrong (a violation), not unlucky: the skew drawn is what hosts kept by NTP show.
 */
export const clientClock = defineFault({
  name: 'client-clock',
  description:
    'each client runs under its own wall-clock offset (±clock-skew ms, sometimes one stepped ±clock-step ms)',
  backends: 'any',
  external: 'client',
  recordedAs: 'client-clock',
  clockAssumption:
    "clients' clocks offset each within ±clock-skew ms, one client stepped ±clock-step ms in a third of the runs (clientClocks: the values, and how far the door reached)",
  settings: {
    [CLOCK_SKEW]: {
      description: "most a client's clock is off, ms, either way (NTP-synced hosts)",
      min: 0,
      max: 60_000,
      default: 50,
    },
    [CLOCK_STEP]: {
      description: 'a step one client takes in some runs, ms, either way (a VM migration; 0: never)',
      min: 0,
      max: 600_000,
      default: 2_000,
    },
  },
  draw: {
    lane: 'client-clocks',
    offsets: (clients, settings) => clientClockOffsets(clients, settings[CLOCK_SKEW] ?? 0, settings[CLOCK_STEP] ?? 0),
  },
});
