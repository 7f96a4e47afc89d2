import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeFault,
  isAimedDelay,
  isCommandFault,
  parseFaultList,
  scheduleArbitrary,
  type CommandFaultStep,
} from '../../../src/generator/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const sample = <T>(arb: fc.Arbitrary<T>, n = 400) => fc.sample(arb, { numRuns: n, seed: 15 });
const commandFaults = (faults: Omit<Parameters<typeof scheduleArbitrary>[0], 'pattern'>) =>
  sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, ...faults })).flatMap((s) =>
    s.faults.filter(isCommandFault),
  );

describe('command faults in schedules', () => {
  it('are drawn on their own lane: up to 3 a run, beside up to maxFaults cluster faults', () => {
    const schedules = sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, maxFaults: 3 }));
    for (const s of schedules) {
      // A race's aimed hold comes on top of the lane's (src/generator/races.ts).
      expect(s.faults.filter(isCommandFault).length).toBeLessThanOrEqual(3);
      expect(s.faults.filter(isAimedDelay).length).toBeLessThanOrEqual(1);
      expect(s.faults.filter((f) => !isCommandFault(f) && !isAimedDelay(f)).length).toBeLessThanOrEqual(3);
    }
    expect(schedules.some((s) => s.faults.some(isCommandFault) && s.faults.some((f) => !isCommandFault(f)))).toBe(true);
  });

  it('hold for a duration around the leases, in both directions, on one key or any', () => {
    const leasesMs = [250, 500];
    const delays = commandFaults({ leasesMs }).filter(
      (f): f is Extract<CommandFaultStep, { kind: 'command-delay' }> => f.kind === 'command-delay',
    );
    expect(delays.length).toBeGreaterThan(50);
    for (const d of delays) {
      expect(d.holdMs).toBeGreaterThanOrEqual(188);
      expect(d.holdMs).toBeLessThanOrEqual(1_000);
      expect(d.limit).toBeGreaterThanOrEqual(1);
    }
    expect(new Set(delays.map((d) => d.on))).toEqual(new Set(['reply', 'request']));
    // Most holds end just after the key's own TTL runs out; the rest last holdMs.
    expect(delays.some((d) => d.pastExpiryMs === undefined) && delays.some((d) => d.pastExpiryMs !== undefined)).toBe(
      true,
    );
    for (const d of delays) if (d.pastExpiryMs !== undefined) expect(d.pastExpiryMs).toBeLessThanOrEqual(100);
    expect(delays.some((d) => d.key === undefined) && delays.some((d) => d.key !== undefined)).toBe(true);
    // An absent key is absent, not undefined: schedules round-trip through JSON unchanged.
    for (const d of delays) if (d.key === undefined) expect(Object.keys(d)).not.toContain('key');
  });

  it('come only when enabled, and not at all when maxFaults is 0', () => {
    expect(commandFaults({ faults: parseFaultList('latency,busy-script') })).toEqual([]);
    expect(commandFaults({ maxFaults: 0 })).toEqual([]);
    expect(new Set(commandFaults({ faults: ['reply-loss'] }).map((f) => f.kind))).toEqual(new Set(['reply-loss']));
    expect(parseFaultList('all')).toEqual(expect.arrayContaining(['command-delay', 'reply-loss']));
  });

  it('read in a counterexample as what they do', () => {
    expect(
      describeFault({
        kind: 'command-delay',
        atMs: 40,
        ms: 600,
        command: 2,
        key: 1,
        on: 'reply',
        holdMs: 400,
        limit: 1,
      }),
    ).toBe('@40ms hold the replies to up to 1 of observed command #2 on k1 within 600ms for 400ms');
    expect(describeFault({ kind: 'reply-loss', atMs: 0, ms: 300, command: 0, limit: 2 })).toBe(
      '@0ms lose the reply to up to 2 of observed command #0 within 300ms (cut the connection)',
    );
  });
});
