// What `all` means on the server a job probes: script-evict joins it where the server evicts
// EVAL-loaded scripts (Redis 7.4+, Valkey 8) and nowhere else, so a server that keeps its scripts
// (the default 7.0, 6.2) runs and draws exactly what it did; where it joins, it fires often enough
// for a job of 20 runs to meet it several times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asksAll, faultsForServer } from '../../../src/certify/partition-faults.ts';
import { jobOptions } from '../../../src/cli/chaos-flags.ts';
import type { ServerFeatures } from '../../../src/cluster/features.ts';
import { faultOf } from '../../../src/faults/index.ts';
import { FAULT_NAMES, parseFaultList, scheduleArbitrary } from '../../../src/generator/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { parseTopologySpec } from '../../../src/plan/topology.ts';

const keeps: ServerFeatures = { functions: true, shebangFlags: true, evictsScripts: false, frozenTime: false };
const evicts: ServerFeatures = { ...keeps, evictsScripts: true, frozenTime: true };

describe('the faults of all, by the server probed', () => {
  it('takes script-evict where the server evicts, and nowhere else', () => {
    expect(faultsForServer(FAULT_NAMES, true, evicts)).toEqual([...FAULT_NAMES, 'script-evict']);
    expect(faultsForServer(FAULT_NAMES, true, keeps)).toEqual([...FAULT_NAMES]);
    // Not probed (a stand-in cluster): nothing is assumed.
    expect(faultsForServer(FAULT_NAMES, true, undefined)).toEqual([...FAULT_NAMES]);
  });

  it('leaves a list named fault by fault as it is, and adds script-evict once to all,script-evict', () => {
    expect(faultsForServer(['latency', 'script-flush'], false, evicts)).toEqual(['latency', 'script-flush']);
    const named = parseFaultList('all,script-evict');
    expect(faultsForServer(named, true, evicts)).toEqual(named);
  });

  it('on independent masters, adds it to what they run', () => {
    const masters = parseTopologySpec('masters');
    expect(faultsForServer(['lease-expiry', 'script-flush'], true, evicts, masters)).toEqual([
      'lease-expiry',
      'script-flush',
      'script-evict',
    ]);
  });

  it('reads all in a --faults list, given or by default, alone or with what it leaves out', () => {
    expect([undefined, 'all', ' all ', 'all,clocks', 'all,script-evict'].map(asksAll)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['none', 'latency', 'script-flush,script-evict', 'clocks'].map(asksAll)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('is what the certify flags hand the job', () => {
    expect(jobOptions('certify', {}).allFaults).toBe(true);
    expect(jobOptions('certify', { faults: 'all,clocks' }).allFaults).toBe(true);
    expect(jobOptions('certify', { faults: 'latency' }).allFaults).toBeUndefined();
  });
});

describe('script-evict in the draw', () => {
  const kinds = (faults: readonly string[], seed: number) =>
    fc.sample(scheduleArbitrary({ pattern: PATTERNS.lock, faults: faults as never }), { numRuns: 200, seed }).map((s) =>
      s.faults
        .map(faultOf)
        .filter((f) => f.draw.lane === 'cluster')
        .map((f) => f.name),
    );

  it('fires in about a quarter of the cluster faults on a server that evicts, more than SCRIPT FLUSH', () => {
    const drawn = kinds([...FAULT_NAMES, 'script-evict'], 7).flat();
    const share = (kind: string) => drawn.filter((k) => k === kind).length / drawn.length;
    expect(share('script-evict')).toBeGreaterThan(0.18);
    expect(share('script-evict')).toBeLessThan(0.32);
    expect(share('script-evict')).toBeGreaterThan(share('script-flush'));
  });

  it('leaves every draw of a set without it as it was (its class is last, and empty there)', () => {
    const drawn = kinds(FAULT_NAMES, 7).flat();
    expect(drawn).not.toContain('script-evict');
    expect(drawn).toContain('script-flush');
  });
});
