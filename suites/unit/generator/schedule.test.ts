import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeFault,
  FAULT_NAMES,
  parseFaultList,
  scheduleArbitrary,
  type FaultStep,
} from '../../../src/generator/index.ts';
import type { LockInput } from '../../../src/patterns/lock/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const sample = <T>(arb: fc.Arbitrary<T>, n = 300) => fc.sample(arb, { numRuns: n, seed: 42 });

describe('scheduleArbitrary', () => {
  it('draws schedules that are plain data, with faults in time order and only of the enabled kinds', () => {
    fc.assert(
      fc.property(
        scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: ['busy-script', 'latency'], maxFaults: 4 }),
        (schedule) => {
          expect(JSON.parse(JSON.stringify(schedule))).toEqual(schedule);
          const at = schedule.faults.map((f) => f.atMs);
          expect(at).toEqual([...at].sort((a, b) => a - b));
          for (const f of schedule.faults) expect(['busy-script', 'toxic']).toContain(f.kind);
        },
      ),
      { numRuns: 100, seed: 1 },
    );
  });

  it('reaches every nemesis fault name when all are enabled (each fault class gets a share)', () => {
    const name = (f: FaultStep): string => {
      if (f.kind === 'toxic') return f.toxic === 'reset_peer' ? 'reset-peer' : f.toxic;
      if (f.kind === 'failover') return f.mode === 'default' ? 'failover' : `failover-${f.mode}`;
      // A race's hold is a command delay aimed at its operation.
      if (f.kind === 'aimed-delay') return 'command-delay';
      return f.kind;
    };
    const names = new Set(
      sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, maxFaults: 3 }), 600).flatMap((s) =>
        s.faults.map(name),
      ),
    );
    const clientSide = ['lease-expiry', 'client-freeze', 'client-clock', 'slow-network'];
    expect([...names].sort()).toEqual(FAULT_NAMES.filter((f) => !clientSide.includes(f)).sort());
  });

  it('gives a third of the runs a slow network, only when slow-network is enabled', () => {
    const slow = sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: ['slow-network'] }), 600).filter(
      (s) => s.network,
    );
    expect(slow.length).toBeGreaterThan(100);
    expect(slow.length).toBeLessThan(300);
    for (const s of slow) expect(s.network!.clientLatencyMs).toBeGreaterThanOrEqual(5);
    for (const s of slow) expect(s.network!.clientLatencyMs).toBeLessThanOrEqual(150);
    expect(
      sample(scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: ['latency'] })).filter((s) => s.network),
    ).toEqual([]);
  });

  it('keeps busy-script bursts well inside the node timeout, so a busy shard never fails over', () => {
    for (const nodeTimeoutMs of [1_000, 15_000]) {
      const faults = sample(
        scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: ['busy-script'], maxFaults: 2, nodeTimeoutMs }),
      ).flatMap((s) => s.faults);
      expect(faults.length).toBeGreaterThan(0);
      for (const f of faults) {
        if (f.kind !== 'busy-script') throw new Error(`unexpected ${f.kind}`);
        expect(f.burstMs).toBeLessThanOrEqual(Math.min(1_000, nodeTimeoutMs * 0.4));
        expect(f.gapMs).toBeGreaterThanOrEqual(50);
      }
    }
  });

  it('draws lock sessions whose release races the TTL: released within 300 ms of the expiry', () => {
    const edges = sample(scheduleArbitrary({ pattern: PATTERNS.lock, faults: [] }), 200).flatMap((s) =>
      s.clients.flatMap((steps) =>
        steps.flatMap((step, i) => {
          const next = steps[i + 1];
          const acquire = steps
            .slice(0, i)
            .reverse()
            .find((st) => st.type === 'op') as { input: LockInput } | undefined;
          if (
            step.type !== 'pause' ||
            next?.type !== 'op' ||
            (next.input as LockInput).op !== 'release' ||
            acquire?.input.op !== 'acquire'
          )
            return [];
          return [acquire.input.ttlMs - step.ms];
        }),
      ),
    );
    expect(edges.length).toBeGreaterThan(0);
    for (const before of edges) expect(before).toBeLessThanOrEqual(300);
  });
});

describe('fault lists and descriptions', () => {
  it('parses --faults, naming the unknown one', () => {
    expect(parseFaultList('all')).toEqual([...FAULT_NAMES]);
    expect(parseFaultList('none')).toEqual([]);
    expect(parseFaultList('busy-script, latency')).toEqual(['busy-script', 'latency']);
    expect(() => parseFaultList('latency,bogus')).toThrow(/unknown fault 'bogus'/);
  });

  it('describes a latency toxic with its delay, and an older one (no delay) as before', () => {
    const old: FaultStep = {
      kind: 'toxic',
      atMs: 5,
      target: { key: 0, role: 'master' },
      link: 'client',
      toxic: 'latency',
      ms: 300,
    };
    expect(describeFault(old)).toBe('@5ms latency on the client link of master of k0 for 300ms');
    expect(describeFault({ ...old, delayMs: 120 })).toBe(
      '@5ms latency 120ms on the client link of master of k0 for 300ms',
    );
    expect(describeFault({ kind: 'busy-script', atMs: 0, key: 1, ms: 900, burstMs: 200, gapMs: 100 })).toBe(
      '@0ms busy scripts on the master of k1 for 900ms (BUSY for 200ms every 300ms)',
    );
  });
});
