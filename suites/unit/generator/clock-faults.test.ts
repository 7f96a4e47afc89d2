// The clock faults are named, never in `all`: a fault set without them draws every schedule as it did
// before they existed (the mutants' pinned seeds and the sweep's evidence stay valid), and with them a
// schedule's clock steps stay within the bounds the certificate states.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockAssumptions, TRUE_CLOCKS } from '../../../src/certify/clock-assumption.ts';
import { refusedClockFaults } from '../../../src/certify/partition-faults.ts';
import { parseFaultList } from '../../../src/generator/index.ts';
import { faultsArbitrary } from '../../../src/generator/faults.ts';
import { scheduleOptions } from '../../../src/generator/constraints.ts';
import { isClockStep } from '../../../src/plan/schedule.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const draws = (faults: readonly string[], seed: number, faultSettings?: Record<string, number>) =>
  fc.sample(
    faultsArbitrary(scheduleOptions({ pattern: PATTERNS.lock, faults: faults as never, faultSettings }), 3, 3_000),
    { numRuns: 40, seed },
  );

describe('clock faults', () => {
  it("are named alone, as 'clocks', or beside all; never by all", () => {
    expect(parseFaultList('all')).not.toContain('clock-jump');
    expect(parseFaultList('clocks')).toEqual(['clock-jump', 'clock-strobe', 'clock-drift']);
    const both = parseFaultList('all,clocks');
    expect(both).toEqual([...parseFaultList('all'), 'clock-jump', 'clock-strobe', 'clock-drift']);
    expect(parseFaultList('latency,clock-strobe')).toEqual(['latency', 'clock-strobe']);
    expect(() => parseFaultList('none,clocks')).toThrow("'none' stands alone");
    expect(() => parseFaultList('all,latency')).toThrow("'all' and 'none' stand alone");
  });

  // That the other draws stay byte for byte what they were is pinned-draws.test.ts's (digests per seed).
  it('are never drawn by all, and are drawn when named', () => {
    const all = parseFaultList('all');
    const withClocks = draws([...all, 'clock-jump', 'clock-strobe', 'clock-drift'], 7);
    expect(draws(all, 7).flat().some(isClockStep)).toBe(false);
    expect(withClocks.flat().filter(isClockStep).length).toBeGreaterThan(3);
  });

  it('stay within the bounds the certificate states', () => {
    for (const step of draws(['clock-jump', 'clock-strobe', 'clock-drift'], 11).flat().filter(isClockStep)) {
      if (step.kind === 'clock-drift') expect(Math.abs(step.driftPpm)).toBeLessThanOrEqual(200_000);
      else expect(Math.abs(step.offsetMs)).toBeLessThanOrEqual(step.kind === 'clock-jump' ? 5_000 : 1_000);
      if (step.kind === 'clock-jump' && step.failover) expect(step.target.role).toBe('replica');
    }
    expect(clockAssumptions(['latency'])).toEqual([TRUE_CLOCKS]);
    expect(clockAssumptions(parseFaultList('clocks')).join(' ')).toMatch(/±5 s.*±1 s.*20% fast or slow/);
  });

  it('step by the size --set clock-jump gives, either way, and the certificate says so', () => {
    const steps = draws(['clock-jump'], 13, { 'clock-jump': 300 }).flat().filter(isClockStep);
    expect(steps.length).toBeGreaterThan(3);
    expect(new Set(steps.map((s) => (s.kind === 'clock-jump' ? Math.abs(s.offsetMs) : -1)))).toEqual(new Set([300]));
    expect(clockAssumptions(['clock-jump'], { 'clock-jump': 300 })).toEqual([
      'a server clock may step by ±0.3 s, on a master, on a replica, and on a replica then promoted',
    ]);
    expect(clockAssumptions(['clock-jump'], { 'clock-jump': 0 })[0]).toContain('up to ±5 s');
  });

  it('are refused in one line on a cluster whose servers chaoslua does not start', () => {
    expect(refusedClockFaults('external', ['latency', 'clock-jump'])).toBe(
      "--faults clock-jump needs --cluster local or netns (an external cluster's servers are not started by chaoslua, so their clocks cannot be moved)",
    );
    expect(refusedClockFaults('local', ['clock-jump'])).toBeUndefined();
    expect(refusedClockFaults('compose', ['latency'])).toBeUndefined();
    expect(refusedClockFaults('compose', ['clock-drift'])).toBe(
      "--faults clock-drift needs --cluster local or netns (a compose cluster's servers run in their images without the clock preload, so their clocks cannot be moved)",
    );
  });
});
