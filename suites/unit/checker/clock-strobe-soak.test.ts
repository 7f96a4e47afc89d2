/**
 * The semaphore history CI's soak met on 2026-12-07 under `all,clocks` (seed 20261204): the master's
 * clock strobed between -1000 ms and true every 50 ms, and an acquire at 860.8 ms was refused while the
 * clock read 1 s behind, so a holder whose lease had ended in real time still counted. A clock loss,
 * never the implementation's: the widened re-check used to search it with the lossy failover's
 * rollbacks too, ran out of budget, and the key was reported illegal (model-conformance).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { History } from '../../../src/history/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const fixture = new URL('./fixtures/semaphore-soak-seed20261204-clock-strobe.json', import.meta.url);
const { history } = JSON.parse(readFileSync(fixture, 'utf8')) as { history: History<unknown, unknown> };

describe("the semaphore soak's clock strobe", () => {
  it('is a clock loss, explained by the strobe, with no violation', () => {
    const result = check(history, PATTERNS.semaphore);
    expect(result.violations).toEqual([]);
    const strobed = result.keys.find((k) => k.key === '88a1e967-32:k0');
    expect(strobed?.verdict).toBe('clock-loss');
    expect(strobed?.note).toMatch(/n1's clock strobed 39 times, between -1000 ms and \+0 ms \(fault 86, clock-strobe/);
  });
});

describe("the semaphore soak's clock strobe beside a lossy failover", () => {
  // CI's soak again (seed 20261204, a later run): n1 strobed -1000 ms and true every 50 ms while a
  // FORCE failover of its shard could lose writes. The rollbacks' search ran out of budget and the key
  // was reported undecided before the moved clocks were tried; they alone explain it in a few hundred
  // states. A smaller budget than the soak's keeps this quick; the rollbacks' search runs out here too.
  const strobed = new URL('./fixtures/semaphore-soak-seed20261204-strobe-failover.json', import.meta.url);
  const { history: recorded } = JSON.parse(readFileSync(strobed, 'utf8')) as { history: History<unknown, unknown> };

  it('is a clock loss even when the lossy faults leave it undecided, with no violation', () => {
    const result = check(recorded, PATTERNS.semaphore, { minimise: false, budget: 50_000 });
    expect(result.violations).toEqual([]);
    const key = result.keys.find((k) => k.key === 'bb0e4e75-32:k0');
    expect(key?.verdict).toBe('clock-loss');
    expect(key?.note).toMatch(/n1's clock strobed 38 times, between -1000 ms and \+0 ms \(fault 86, clock-strobe/);
  });
});
