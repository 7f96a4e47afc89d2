// One descriptor per fault: every name once, every nemesis step owned by exactly the descriptor that
// drew it, and every fault the nemesis runs able to apply, record and (on the cluster lane) heal itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULTS_HELP } from '../../../src/cli/chaos-flags.ts';
import {
  CLOCK_FAULT_NAMES,
  FAULT_DESCRIPTORS,
  FAULT_NAMES,
  faultOf,
  PARTITION_FAULT_NAMES,
  type DrawContext,
} from '../../../src/faults/index.ts';

const ctx: DrawContext = {
  keys: 3,
  horizonMs: 2_000,
  nodeTimeoutMs: 1_000,
  leasesMs: [250, 500],
  at: fc.integer({ min: 0, max: 2_000 }),
  target: (roles) => fc.record({ key: fc.integer({ min: 0, max: 2 }), role: fc.constantFrom(...roles) }),
};

describe('the fault descriptors', () => {
  it('name every fault once; all, the netns-only ones and the clock ones split them', () => {
    const names = FAULT_DESCRIPTORS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...FAULT_NAMES, ...PARTITION_FAULT_NAMES, ...CLOCK_FAULT_NAMES, 'script-evict'].sort()).toEqual(
      [...names].sort(),
    );
    expect(CLOCK_FAULT_NAMES).toEqual(['clock-jump', 'clock-strobe', 'clock-drift']);
    for (const f of FAULT_DESCRIPTORS) expect(f.description.length, f.name).toBeGreaterThan(10);
  });

  it('own exactly the steps they draw', () => {
    for (const f of FAULT_DESCRIPTORS) {
      if (f.draw.lane !== 'cluster' && f.draw.lane !== 'command') continue;
      for (const step of fc.sample(f.draw.step(ctx), { numRuns: 30, seed: 1 })) {
        expect(faultOf(step).name, f.name).toBe(f.name);
        expect(FAULT_DESCRIPTORS.filter((d) => d.is?.(step)).map((d) => d.name)).toEqual([f.name]);
      }
    }
  });

  it('give every fault the nemesis runs an apply, a record kind and a conservative guess for a failed attempt; cluster faults a heal', () => {
    for (const f of FAULT_DESCRIPTORS) {
      const nemesis = f.draw.lane === 'cluster' || f.draw.lane === 'command';
      expect(typeof f.apply === 'function', f.name).toBe(nemesis);
      expect(typeof f.lossy === 'function', f.name).toBe(nemesis);
      expect(typeof f.heal === 'function', f.name).toBe(f.draw.lane === 'cluster');
      if (nemesis) expect(f.recordedAs, f.name).toBeDefined();
    }
  });

  it('refuse a step no descriptor knows', () => {
    expect(() => faultOf({ kind: 'meteor', atMs: 0 } as never)).toThrow("no fault describes a step of kind 'meteor'");
  });

  it('are what --help lists under faults, one line each', () => {
    const lines = FAULTS_HELP.split('\n').slice(1);
    expect(lines.map((l) => l.trim().split(/\s+/)[0])).toEqual(FAULT_DESCRIPTORS.map((f) => f.name));
    expect(lines.find((l) => l.includes('partition-one'))).toMatch(/\[--cluster netns only\]$/);
    expect(lines.find((l) => l.includes('busy-script'))).toMatch(/\[external: with --allow-destructive\]$/);
  });
});
