// The client-clock fault: one wall-clock offset per logical client for a whole run, drawn last in a
// schedule (so every other part of a seed's schedules is what it was), within ±clock-skew with one
// client stepped by ±clock-step in some runs, set with --set and checked once, and recorded in the history.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobOptionsFrom, JobSettingError } from '../../../src/certify/options.ts';
import { clientClockOffsets } from '../../../src/faults/client-clock.ts';
import { FAULT_NAMES } from '../../../src/faults/index.ts';
import { scheduleArbitrary, type Schedule, type ScheduleConstraints } from '../../../src/generator/index.ts';
import { startClock } from '../../../src/history/clock.ts';
import { Recorder } from '../../../src/history/recorder.ts';
import { describeSchedule } from '../../../src/plan/schedule.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { recordClientClocks, setClientClocks } from '../../../src/runner/client-clocks.ts';
import type { Subject } from '../../../src/subject/types.ts';
import { cli, forbidClusters } from '../cli/support.ts';

const draw = (c: Omit<ScheduleConstraints, 'pattern'>, seed: number, n = 30): Schedule[] =>
  fc.sample(scheduleArbitrary({ pattern: PATTERNS.semaphore, ...c }), { seed, numRuns: n });
const withClock = [...FAULT_NAMES.filter((f) => f !== 'client-clock'), 'client-clock'] as const;
const without = FAULT_NAMES.filter((f) => f !== 'client-clock');

describe('the draw', () => {
  it('is the same for the same seed, and leaves the rest of every schedule as it was without the fault', () => {
    const a = draw({ faults: [...withClock] }, 4242);
    expect(draw({ faults: [...withClock] }, 4242)).toEqual(a);
    const plain = draw({ faults: without }, 4242);
    expect(a.map(({ clientClocks: _, ...rest }) => rest)).toEqual(plain);
    expect(plain.every((s) => s.clientClocks === undefined)).toBe(true);
    expect(a.filter((s) => s.clientClocks).length).toBeGreaterThan(20);
  });

  it('gives every client an offset within ±skew, and in some runs one client ±step on top', () => {
    const schedules = draw(
      { faults: ['client-clock'], faultSettings: { 'clock-skew': 30, 'clock-step': 5000 } },
      7,
      300,
    );
    let stepped = 0;
    for (const s of schedules) {
      const offsets = s.clientClocks!;
      expect(offsets).toHaveLength(s.clients.length);
      const far = offsets.filter((ms) => Math.abs(ms) > 30);
      expect(far.length).toBeLessThanOrEqual(1);
      for (const ms of far)
        expect(Math.abs(ms)).toBeGreaterThanOrEqual(4970), expect(Math.abs(ms)).toBeLessThanOrEqual(5030);
      stepped += far.length;
    }
    // A third of the runs, by the draw's weights: far from none and far from all.
    expect(stepped).toBeGreaterThan(60);
    expect(stepped).toBeLessThan(140);
  });

  it('draws no offsets at all with skew and step 0, and only skew with step 0', () => {
    expect(fc.sample(clientClockOffsets(5, 0, 0), { seed: 1, numRuns: 50 }).every((o) => o === undefined)).toBe(true);
    const skewOnly = fc.sample(clientClockOffsets(5, 20, 0), { seed: 1, numRuns: 50 });
    expect(skewOnly.every((o) => o === undefined || o.every((ms) => Math.abs(ms) <= 20))).toBe(true);
  });

  it("is described in the counterexample, one line for the clients' clocks", () => {
    const [s] = draw({ faults: ['client-clock'], faultSettings: { 'clock-skew': 50 } }, 3, 1);
    expect(describeSchedule(s, (i) => JSON.stringify(i))).toMatch(
      /^client clocks: c\d+ [+-]\d+ms(, c\d+ [+-]\d+ms)*, all run$/m,
    );
  });
});

describe('its settings', () => {
  const message = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      if (error instanceof JobSettingError) return error.message;
      throw error;
    }
    throw new Error('not refused');
  };

  it("are filled with their defaults when the fault is in the set, and kept apart from the pattern's", () => {
    const o = jobOptionsFrom('certify', { pattern: 'ratelimit' });
    expect(o.faultSettings).toEqual({ 'clock-skew': 50, 'clock-step': 2000 });
    expect(o.settings).toEqual({ limit: 3, window: 1 });
    const set = jobOptionsFrom('certify', { pattern: 'ratelimit', settings: { 'clock-skew': 5, window: 2 } });
    expect(set.faultSettings).toEqual({ 'clock-skew': 5, 'clock-step': 2000 });
    expect(set.settings).toEqual({ limit: 3, window: 2 });
    expect(jobOptionsFrom('certify', { pattern: 'lock', faults: ['node-freeze'] }).faultSettings).toBeUndefined();
  });

  it('refuse a value out of limits, or a setting of a fault left out, in one line', () => {
    expect(message(() => jobOptionsFrom('certify', { settings: { 'clock-skew': -1 } }))).toBe(
      'settings: clock-skew must be an integer in [0, 60000], got -1',
    );
    expect(message(() => jobOptionsFrom('certify', { settings: { 'clock-step': 1.5 } }))).toBe(
      'settings: clock-step must be an integer in [0, 600000], got 1.5',
    );
    expect(message(() => jobOptionsFrom('certify', { faults: ['node-freeze'], settings: { 'clock-skew': 10 } }))).toBe(
      'settings: clock-skew is a setting of the fault client-clock, which the fault list leaves out, got 10',
    );
  });

  it('are refused by the generator too, naming what is wrong', () => {
    expect(() =>
      scheduleArbitrary({ pattern: PATTERNS.lock, faults: ['node-freeze'], faultSettings: { 'clock-skew': 1 } }),
    ).toThrow(
      'scheduleArbitrary: settings: clock-skew is a setting of the fault client-clock, which the fault list leaves out, got 1',
    );
    expect(() => scheduleArbitrary({ pattern: PATTERNS.lock, faultSettings: { 'clock-skw': 1 } })).toThrow(
      "no fault in the set has a setting 'clock-skw'",
    );
  });

  describe('on the command line', () => {
    let attempts: string[];
    beforeEach(() => {
      attempts = forbidClusters();
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it.each([
      [['--set', 'clock-skew=fast'], 'certify: --set clock-skew=fast: clock-skew must be an integer in [0, 60000]'],
      [
        ['--set', 'clock-step=700000'],
        'certify: --set clock-step=700000: clock-step must be an integer in [0, 600000]',
      ],
      [
        ['--faults', 'node-freeze', '--set', 'clock-skew=10'],
        'certify: --set clock-skew=10: clock-skew is a setting of the fault client-clock, which the fault list leaves out',
      ],
    ])('%j: one line, exit 2, no cluster', async (flags, line) => {
      const r = await cli(['certify', '--impl', 'lua:lua/lock', '--pattern', 'lock', ...flags]);
      expect(r.stderr.trim()).toBe(`chaoslua: ${line}`);
      expect(r.code).toBe(2);
      expect(attempts).toEqual([]);
    });
  });
});

describe('the record of a run', () => {
  const subject = (set?: (ms: number) => void): Subject => ({
    name: 's',
    invoke: async () => undefined,
    close: async () => undefined,
    clientClock: { reach: "the lua door's client sends no time", ...(set ? { set } : {}) },
  });

  it('has one fault per client whose clock was off, spanning the run, naming the client and its offset', () => {
    const recorder = new Recorder(startClock());
    const seen: number[][] = [[], [], []];
    const subjects = [0, 1, 2].map((c) => (c === 2 ? subject() : subject((ms) => seen[c].push(ms))));
    setClientClocks(subjects, [12, 0, -2017]);
    recordClientClocks(recorder, [12, 0, -2017], subjects, 1500);
    setClientClocks(subjects, [0, 0, 0]);
    const faults = recorder.history().faults;
    expect(faults.map((f) => [f.kind, f.target, f.startedAt, f.endedAt, f.lossy])).toEqual([
      ['client-clock', 'client c0', 0, 1500, false],
      ['client-clock', 'client c2', 0, 1500, false],
    ]);
    expect(faults[0].detail).toBe("c0's clock +12ms (ahead of true), all run");
    expect(faults[1].detail).toBe(
      "c2's clock -2017ms (behind true), all run (not reached: the lua door's client sends no time)",
    );
    expect(seen).toEqual([[12, 0], [0, 0], []]);
  });
});
