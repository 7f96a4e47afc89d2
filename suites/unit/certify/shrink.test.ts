import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { continuePath, recordingValues, shrinkInBatches, WorkerLost } from '../../../src/certify/shrink.ts';

// Shrinking side by side must land where fast-check's own shrinking lands, by a path fast-check
// replays: the candidates of a batch run at once, but the first failing one *in stream order* wins.

const arb = fc.array(fc.nat(100), { maxLength: 30 });
const fails = (xs: number[]) => xs.filter((x) => x > 40).length >= 3;

/** Explore as the chaos job does: fast-check never shrinks, the first failure's value is kept. */
async function firstFailure(seed: number) {
  let index = 0;
  let found: { value: fc.Value<[number[]]>; path: string } | undefined;
  const recorded = recordingValues(
    fc.asyncProperty(arb, async (xs) => {
      const at = index++;
      if (!found && fails(xs)) found = { value: recorded.valueOf(xs)!, path: String(at) };
      return true;
    }),
  );
  await fc.check(recorded.property, { seed, numRuns: 200 });
  return found;
}

describe('shrinkInBatches', () => {
  for (const seed of [1, 7, 42, 2026]) {
    it(`seed ${seed}: 1 and 3 workers reach fast-check's counterexample, by fast-check's path`, async () => {
      const own = await fc.check(
        fc.asyncProperty(arb, async (xs) => !fails(xs)),
        { seed, numRuns: 200 },
      );
      expect(own.failed).toBe(true);
      const start = await firstFailure(seed);
      expect(start).toBeDefined();
      const property = fc.asyncProperty(arb, async (xs) => !fails(xs));
      for (const workers of [[0], [0, 1, 2]]) {
        let inFlight = 0;
        let most = 0;
        const result = await shrinkInBatches(
          { ...start!, failed: start!.value.value_[0] },
          {
            shrink: (v) => property.shrink(v),
            workers,
            budget: 100_000,
            attempt: async (worker, [xs]) => {
              most = Math.max(most, ++inFlight);
              // Later workers answer first: the order of answers must not decide what is kept.
              await new Promise((r) => setTimeout(r, (workers.length - worker) * 2));
              inFlight--;
              return fails(xs) ? xs : undefined;
            },
          },
        );
        expect(result.value.value_[0]).toEqual(own.counterexample![0]);
        expect(result.path).toBe(own.counterexamplePath);
        expect(most).toBe(workers.length);
        // fast-check replays the path to the same value.
        const replayed = await fc.check(property, { seed, path: result.path });
        expect(replayed.counterexample![0]).toEqual(result.value.value_[0]);
      }
    });
  }

  it('a worker that is lost takes no more candidates; the others finish the search', async () => {
    const start = (await firstFailure(7))!;
    const property = fc.asyncProperty(arb, async (xs) => !fails(xs));
    const own = await fc.check(property, { seed: 7, numRuns: 200 });
    const calls = new Map<string, number>();
    const result = await shrinkInBatches(
      { ...start, failed: start.value.value_[0] },
      {
        shrink: (v) => property.shrink(v),
        workers: ['a', 'lost', 'b'],
        budget: 100_000,
        attempt: async (worker, [xs]) => {
          calls.set(worker, (calls.get(worker) ?? 0) + 1);
          if (worker === 'lost') throw new WorkerLost('cluster down');
          return fails(xs) ? xs : undefined;
        },
      },
    );
    expect(calls.get('lost')).toBe(1);
    expect(calls.get('a')).toBeGreaterThan(1);
    // A lost candidate counts as not failing, so the result may stop short of fast-check's: it
    // still fails, and it is no larger than where the search started.
    expect(fails(result.value.value_[0])).toBe(true);
    expect(result.value.value_[0].length).toBeLessThanOrEqual(start.value.value_[0].length);
    expect(own.failed).toBe(true);
  });

  it('the budget counts what fast-check would run: 4 workers with a budget of 10 end where 1 worker does', async () => {
    const start = (await firstFailure(42))!;
    const property = fc.asyncProperty(arb, async (xs) => !fails(xs));
    const shrinkWith = async (workers: number[]) => {
      let runs = 0;
      const result = await shrinkInBatches(
        { ...start, failed: start.value.value_[0] },
        {
          shrink: (v) => property.shrink(v),
          workers,
          budget: 10,
          attempt: async (_, [xs]) => (runs++, fails(xs) ? xs : undefined),
        },
      );
      return { result, runs };
    };
    const one = await shrinkWith([0]);
    const four = await shrinkWith([0, 1, 2, 3]);
    expect(one.runs).toBe(10);
    expect(one.result.attempts).toBe(10);
    expect(four.result.attempts).toBe(10);
    expect(four.result.value.value_[0]).toEqual(one.result.value.value_[0]);
    expect(four.result.path).toBe(one.result.path);
    // The candidates run beside a failing one are the price: never fewer runs than fast-check's.
    expect(four.runs).toBeGreaterThanOrEqual(10);
    expect(four.result.runs).toBe(four.runs);
  });

  it('a time limit starts no batch that would end past it: the failure so far is kept, on the path one worker takes', async () => {
    const start = (await firstFailure(2026))!;
    const property = fc.asyncProperty(arb, async (xs) => !fails(xs));
    // A fake clock: every candidate takes 10 ms of it, a batch as long as one candidate.
    let clock = 0;
    const shrinkWith = async (deadline: number | undefined) => {
      const batches: number[] = [];
      const result = await shrinkInBatches(
        { ...start, failed: start.value.value_[0] },
        {
          shrink: (v) => property.shrink(v),
          workers: [0, 1],
          budget: 100_000,
          deadline,
          now: () => clock,
          attempt: async (w, [xs]) => (w === 0 && batches.push((clock += 10)), fails(xs) ? xs : undefined),
        },
      );
      return { result, batches };
    };
    clock = 0;
    const whole = await shrinkWith(undefined);
    expect(whole.result.stopped).toBe('minimal');
    clock = 0;
    const cut = await shrinkWith(35);
    expect(cut.result.stopped).toBe('time');
    // Batches end at 10, 20, 30; a fourth would end at 40, past 35: not started.
    expect(cut.batches).toEqual([10, 20, 30]);
    expect(fails(cut.result.value.value_[0])).toBe(true);
    // A prefix of the whole search: the whole path continues the cut one, and fast-check replays it.
    expect(whole.result.path.startsWith(cut.result.path)).toBe(true);
    const replayed = await fc.check(property, { seed: 2026, path: cut.result.path, endOnFailure: true });
    expect(replayed.counterexample![0]).toEqual(cut.result.value.value_[0]);
  });

  it('a path inside a replay continues the replayed path as fast-check does', () => {
    expect(continuePath(undefined, '5:2')).toBe('5:2');
    expect(continuePath('5:2', '0')).toBe('5:2');
    expect(continuePath('5:2', '1:3')).toBe('5:3:3');
  });
});
