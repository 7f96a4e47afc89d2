/**
 * A model with several live leases at once (Model.leaseTags; the semaphore: each holder its own
 * deadline). The search must let any live lease run out, not only the one `leaseTag` names, and
 * still treat a lease no longer live as a no-op expiry.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { SemaphoreInput, SemaphoreOutput } from '../../../src/patterns/semaphore/model.ts';
import { history, keyVerdict, ok, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const acquire = (token: string, ttlMs: number): SemaphoreInput => ({ op: 'acquire', token, limit: 2, ttlMs });
const refresh = (token: string, ttlMs: number): SemaphoreInput => ({ op: 'refresh', token, ttlMs });
const at = (client: number, input: SemaphoreInput, from: number, to: number, output: SemaphoreOutput) =>
  op<SemaphoreInput, SemaphoreOutput>(client, input, from, to, ok(output));

describe('the search over a model with several leases', () => {
  it("lets the holder whose deadline passed run out while a later holder's lease is still live", () => {
    // a (100 ms) and b (10 s) fill the two places; by 500 ms only a's lease can have run out, so c gets a's place.
    const ops = [
      at(0, acquire('a', 100), 0, 5, 1),
      at(1, acquire('b', 10_000), 10, 15, 1),
      at(2, acquire('c', 10_000), 500, 505, 1),
    ];
    expect(keyVerdict(check(history(ops), PATTERNS.semaphore)).verdict).toBe('ok');
  });

  it('an earlier holder whose lease is certainly live still counts: a third place is illegal', () => {
    const ops = [
      at(0, acquire('a', 10_000), 0, 5, 1),
      at(1, acquire('b', 100), 10, 15, 1),
      at(2, acquire('c', 10_000), 50, 55, 1),
    ];
    const verdict = keyVerdict(check(history(ops), PATTERNS.semaphore));
    expect(verdict.verdict).toBe('illegal');
  });

  it('a refreshed holder keeps its place past its first deadline; its old lease running out changes nothing', () => {
    const ops = [
      at(0, acquire('a', 100), 0, 5, 1),
      at(1, acquire('b', 10_000), 10, 15, 1),
      at(0, refresh('a', 10_000), 50, 55, 1),
      at(2, acquire('c', 10_000), 500, 505, 0),
    ];
    expect(keyVerdict(check(history(ops), PATTERNS.semaphore)).verdict).toBe('ok');
    // The same history with c granted a place is not linearizable: both a and b are live at 500 ms.
    const granted = [...ops.slice(0, 3), at(2, acquire('c', 10_000), 500, 505, 1)];
    expect(keyVerdict(check(history(granted), PATTERNS.semaphore)).verdict).toBe('illegal');
  });
});
