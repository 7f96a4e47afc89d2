// The module door's client clocks: each logical client's store reads its own offset in Date.now()
// and new Date(), as a library calls them, in its calls and in what its createStore started; the
// harness's own clock (the recorder's, performance.now) and Date outside the clients' calls are
// untouched, and the global Date is put back once every offset is 0.
import { describe, expect, it } from 'vitest';
import { startClock } from '../../../src/history/clock.ts';
import { moduleSubject, type StoreFactory } from '../../../src/impl/module-subject.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import type { Subject } from '../../../src/subject/types.ts';

/** What a ratelimit store saw of the clock in its hit: Date.now(), new Date(), and how Date behaved. */
interface Seen {
  readonly now: number;
  readonly date: number;
  readonly isDate: boolean;
  readonly parsed: number;
  readonly utc: number;
  readonly later: number;
}

/** A store that reads the clock as a library would (the global Date, looked up at each call), and once from a timer createStore started. */
const timers: Promise<number>[] = [];
const factory: StoreFactory = () => {
  const store = {
    async hit(): Promise<Seen> {
      await new Promise((r) => setImmediate(r));
      const d = new Date();
      const later = await new Promise<number>((r) => setTimeout(() => r(Date.now()), 5));
      return {
        now: Date.now(),
        date: d.getTime(),
        isDate: d instanceof Date,
        parsed: Date.parse('2020-01-01T00:00:00Z'),
        utc: Date.UTC(2020, 0, 1),
        later,
      };
    },
  };
  timers.push(new Promise((r) => setTimeout(() => r(Date.now()), 30)));
  return store;
};

const open = (): Promise<Subject> => moduleSubject(factory, 'clock-test', PATTERNS.ratelimit, {} as never, 'ns');
const hit = async (s: Subject) => (await s.invoke('k', { op: 'hit', limit: 1, windowSeconds: 1 })) as Seen;

describe('the module door under client-clock', () => {
  it('gives each client its own offset in Date.now() and new Date(), and the harness the true clock', async () => {
    const TrueDate = Date;
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    expect(a.clientClock?.set).toBeTypeOf('function');
    const harness = startClock();
    const before = harness.now();
    a.clientClock!.set!(2_000);
    b.clientClock!.set!(-2_000);
    try {
      expect(Date).not.toBe(TrueDate);
      const wall = TrueDate.now();
      const [sa, sb, sc] = await Promise.all([hit(a), hit(b), hit(c)]);
      // Outside the stores' calls: the true clock, whatever Date this is.
      expect(Math.abs(Date.now() - wall)).toBeLessThan(1_000);
      // biome-ignore lint/complexity/useDateNow: the constructor is what is checked here, Date.now() is the line above
      expect(Math.abs(new Date().getTime() - wall)).toBeLessThan(1_000);
      expect(sa.now - wall).toBeGreaterThan(1_900);
      expect(sa.now - wall).toBeLessThan(3_000);
      expect(sb.now - wall).toBeLessThan(-1_000);
      expect(Math.abs(sc.now - wall)).toBeLessThan(1_000);
      expect(sa.date - wall).toBeGreaterThan(1_900);
      expect(sb.date - wall).toBeLessThan(-1_000);
      // Across an await and a timer within the call, the offset holds.
      expect(sa.later - sa.now).toBeGreaterThan(-100);
      expect(sa.later - wall).toBeGreaterThan(1_900);
      for (const s of [sa, sb, sc]) {
        expect(s.isDate).toBe(true);
        expect(s.parsed).toBe(1_577_836_800_000);
        expect(s.utc).toBe(1_577_836_800_000);
      }
      expect(new TrueDate(0) instanceof Date).toBe(true);
      expect(new Date(5).getTime()).toBe(5);
      expect(typeof Date()).toBe('string');
      // The recorder's clock never moved: a few ms passed, not seconds.
      expect(harness.now() - before).toBeLessThan(1_000);
      expect(harness.now() - before).toBeGreaterThanOrEqual(0);
    } finally {
      a.clientClock!.set!(0);
      b.clientClock!.set!(0);
    }
    expect(Date).toBe(TrueDate);
    expect(Math.abs((await hit(a)).now - TrueDate.now())).toBeLessThan(1_000);
  });

  it('reaches a timer createStore started, with the offset set after it was created', async () => {
    const s = await open();
    const timer = timers.at(-1)!;
    s.clientClock!.set!(5_000);
    try {
      const wall = Date.now();
      expect((await timer) - wall).toBeGreaterThan(4_900);
    } finally {
      s.clientClock!.set!(0);
    }
  });
});

describe("the certificate's client clock assumption", () => {
  it("states the offsets drawn and the door's reach, only when client-clock ran", async () => {
    const { clientClockField } = await import('../../../src/certify/client-clock-line.ts');
    const { LUA_CLOCK_REACH, MODULE_CLOCK_REACH } = await import('../../../src/impl/client-clock.ts');
    const faults = ['client-clock'] as const;
    expect(
      clientClockField(
        { faults: [...faults], faultSettings: { 'clock-skew': 50, 'clock-step': 2000 } },
        { clientClockReach: MODULE_CLOCK_REACH },
      ).clientClocks,
    ).toBe(
      `each client's clock offset within ±50 ms, one client stepped ±2000 ms in a third of the runs; ${MODULE_CLOCK_REACH}`,
    );
    expect(
      clientClockField(
        { faults: [...faults], faultSettings: { 'clock-skew': 20, 'clock-step': 0 } },
        { clientClockReach: LUA_CLOCK_REACH },
      ).clientClocks,
    ).toBe(
      "each client's clock offset within ±20 ms; lua: not reached: the lua door's client sends no time (its scripts take none from the client), so client skew cannot reach it",
    );
    expect(clientClockField({ faults: ['node-freeze'] }, { clientClockReach: MODULE_CLOCK_REACH })).toEqual({});
  });
});
