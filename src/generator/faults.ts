import fc from 'fast-check';
import type { FaultName, ScheduleOptions } from './constraints.ts';
import type { FaultStep, FaultTarget } from './schedule.ts';

/** Nemesis faults drawn from the enabled set, at instants within the run's expected span. */
export function faultsArbitrary(options: ScheduleOptions, keys: number, horizonMs: number): fc.Arbitrary<FaultStep[]> {
  const at = fc.integer({ min: 0, max: Math.max(0, horizonMs) });
  const target = (roles: FaultTarget['role'][]): fc.Arbitrary<FaultTarget> =>
    fc.record({ key: fc.integer({ min: 0, max: keys - 1 }), role: fc.constantFrom(...roles) });
  const timeout = options.nodeTimeoutMs;
  const kinds: Partial<Record<FaultName, fc.Arbitrary<FaultStep>>> = {
    'node-freeze': fc.record({
      kind: fc.constant('node-freeze' as const),
      atMs: at,
      target: target(['master', 'replica']),
      // Shorter than the node timeout: a latency spike. Longer: an automatic failover.
      ms: fc.constantFrom(Math.round(timeout * 0.3), Math.round(timeout * 2.5)),
    }),
    'script-flush': fc.record({ kind: fc.constant('script-flush' as const), atMs: at }),
    failover: fc.record({ kind: fc.constant('failover' as const), atMs: at, key: fc.integer({ min: 0, max: keys - 1 }), mode: fc.constant('default' as const) }),
    'failover-force': fc.record({ kind: fc.constant('failover' as const), atMs: at, key: fc.integer({ min: 0, max: keys - 1 }), mode: fc.constant('force' as const) }),
    'failover-takeover': fc.record({
      kind: fc.constant('failover' as const),
      atMs: at,
      key: fc.integer({ min: 0, max: keys - 1 }),
      mode: fc.constant('takeover' as const),
    }),
    latency: toxic('latency', at, target(['master']), fc.integer({ min: 100, max: 600 })),
    timeout: toxic('timeout', at, target(['master']), fc.integer({ min: 100, max: 600 })),
    'reset-peer': toxic('reset_peer', at, target(['master']), fc.integer({ min: 50, max: 300 })),
    'kill-restart': fc.record({
      kind: fc.constant('kill-restart' as const),
      atMs: at,
      target: target(['master', 'replica']),
      downMs: fc.constantFrom(100, Math.round(timeout * 2.5)),
    }),
  };
  const enabled = [...options.faults].map((f) => kinds[f]).filter((a): a is fc.Arbitrary<FaultStep> => a !== undefined);
  if (enabled.length === 0 || options.maxFaults === 0) return fc.constant([]);
  return fc.array(fc.oneof(...enabled), { maxLength: options.maxFaults }).map((faults) => [...faults].sort((a, b) => a.atMs - b.atMs));
}

function toxic(
  kind: 'latency' | 'timeout' | 'reset_peer',
  at: fc.Arbitrary<number>,
  target: fc.Arbitrary<FaultTarget>,
  ms: fc.Arbitrary<number>,
): fc.Arbitrary<FaultStep> {
  return fc.record({
    kind: fc.constant('toxic' as const),
    atMs: at,
    target,
    link: fc.constantFrom('client' as const, 'internal' as const),
    toxic: fc.constant(kind),
    ms,
  });
}
