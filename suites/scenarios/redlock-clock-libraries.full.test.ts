// Kleppmann's Redlock scenario (scenarios/redlock-clock/kleppmann.ts) with the Redlock libraries
// teams run, on five independent masters: npm redlock through module: (new Redlock over five ioredis
// clients) and Go redsync through cmd: (redsync.New over five pools). Client 1 holds the lock on a
// majority through the library, master 2's clock jumps past the lease, client 2 acquires through the
// library: two holders, judged a clock loss (Redlock's bounded-drift assumption broken), not the
// library's bug; with true clocks the second acquire fails. test:full, since the adapters are
// installed by the examples' bootstrap (scripts/bootstrap-examples.sh). About 5 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MastersCluster } from '../../src/cluster/masters.ts';
import { kleppmann, type KleppmannOptions } from '../../scenarios/redlock-clock/kleppmann.ts';
import { libraryMissing, redlockClients, redsyncClients } from '../../scenarios/redlock-clock/libraries.ts';
import { check } from '../../src/checker/index.ts';
import { lock } from '../../src/patterns/lock/index.ts';

let masters: MastersCluster;
beforeAll(async () => {
  masters = await MastersCluster.start({ seed: 13 });
}, 30_000);
afterAll(async () => {
  await masters?.dispose();
});

const libraries: [name: 'redlock' | 'redsync', open: () => KleppmannOptions['open']][] = [
  ['redlock', () => redlockClients],
  ['redsync', () => redsyncClients(masters)],
];

describe.each(libraries)('%s on five independent masters', (name, open) => {
  it('is installed (the examples bootstrap)', () => expect(libraryMissing(name)).toBeUndefined());

  it("master 2's clock jumps past the lease: two holders through the library, a clock loss, not a bug", async () => {
    const run = await kleppmann(masters, {
      jump: true,
      namespace: `kleppmann-${name}-jump-${process.pid}`,
      open: open(),
    });
    expect(run.holders).toEqual([1, 2]);
    expect(run.result.verdict).toBe('clock-loss');
    expect(run.result.violations).toEqual([]);
    expect(run.result.clockLosses!.map((l) => l.invariant)).toEqual(['one-holder']);
    expect(run.result.clockLosses![0].message).toMatch(/n2's clock stepped \+11000 ms/);
    // Only the recorded jump explains it.
    expect(check({ ...run.history, faults: [] }, lock).violations.map((v) => v.invariant)).toEqual(['one-holder']);
    expect(masters.clocks!.offsetMs(2)).toBe(0);
  });

  it('the same schedule with true clocks: client 2 does not get the lock, and the history is legal', async () => {
    const run = await kleppmann(masters, {
      jump: false,
      namespace: `kleppmann-${name}-true-${process.pid}`,
      open: open(),
    });
    expect(run.holders).toEqual([1]);
    expect(run.result.verdict).toBe('ok');
  });
});
