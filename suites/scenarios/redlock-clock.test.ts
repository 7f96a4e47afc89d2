// Kleppmann's Redlock scenario on five independent masters (scenarios/redlock-clock/kleppmann.ts):
// with master 2's clock jumping past the lease, two clients hold the lock, and chaoslua names it a
// clock loss (the environment broke Redlock's bounded-drift assumption), not a violation; the same
// schedule with true clocks is legal, and the second client holds nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MastersCluster } from '../../src/cluster/masters.ts';
import { kleppmann } from '../../scenarios/redlock-clock/kleppmann.ts';
import { check } from '../../src/checker/index.ts';
import { lock } from '../../src/patterns/lock/index.ts';

let masters: MastersCluster;
beforeAll(async () => {
  masters = await MastersCluster.start({ seed: 11 });
}, 30_000);
afterAll(async () => {
  await masters?.dispose();
});

it("master 2's clock jumps past the lease: two holders, judged a clock loss, not a bug", async () => {
  const run = await kleppmann(masters, { jump: true, namespace: `kleppmann-jump-${process.pid}` });
  expect(run.holders).toEqual([1, 2]);
  expect(run.result.verdict).toBe('clock-loss');
  expect(run.result.violations).toEqual([]);
  expect(run.result.clockLosses).toHaveLength(1);
  expect(run.result.clockLosses![0].invariant).toBe('one-holder');
  expect(run.result.clockLosses![0].message).toMatch(/n2's clock stepped \+11000 ms/);
  // Only the recorded offset explains it: the same operations without the jump's record are a violation.
  const unexplained = check({ ...run.history, faults: [] }, lock);
  expect(unexplained.verdict).toBe('illegal');
  expect(unexplained.violations.map((v) => v.invariant)).toEqual(['one-holder']);
  // The jump is recorded as the nemesis records it, and healed.
  expect(run.history.faults.map((f) => f.kind)).toEqual(['clock-jump']);
  expect(masters.clocks!.offsetMs(2)).toBe(0);
});

it('the same schedule with true clocks: client 2 counts two masters, gives back, and the history is legal', async () => {
  const run = await kleppmann(masters, { jump: false, namespace: `kleppmann-true-${process.pid}` });
  expect(run.holders).toEqual([1]);
  expect(run.result.verdict).toBe('ok');
  const second = run.history.ops.filter((o) => o.client === 2);
  expect(second.map((o) => [(o.input as { op: string }).op, o.outcome])).toEqual([
    ['acquire', 'info'],
    ['release', 'info'],
  ]);
  expect(second[0].error).toMatch(/redlock gave back: 2 of 5 masters taken, quorum 3/);
});
