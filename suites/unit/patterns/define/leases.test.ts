// How a spec's leases reach the checker's model: a lease rule's range (shortest where one length is
// read), a single length with no range, and the lease a one-lease reader follows (firstLease).
import { describe, expect, it } from 'vitest';
import { arg, compilePattern, definePattern } from '../../../../src/pattern.ts';

type Queue = { readonly places: readonly number[] };

/** A queue of places, each freed between one and `n` intervals after its take, as GCRA's. */
const queue = (extra: object = {}) =>
  compilePattern(
    definePattern<Queue, any, number>({
      name: 'places',
      operations: {
        take: {
          args: { n: arg.integer({ min: 1, max: 3 }) },
          lease: { ms: (input) => [100, input.n * 100], maxMs: 300 },
        },
        mark: { args: { n: arg.integer({ min: 1, max: 3 }) }, lease: { ms: (input) => input.n * 1000, maxMs: 3000 } },
      },
      model: {
        init: () => ({ places: [] }),
        step: (state, input, id) => ({ state: { places: [...state.places, id] }, output: input.n }),
        leases: (state) => state.places,
        expire: (state, tag) => ({ places: state.places.filter((p) => p !== tag) }),
        ...extra,
      },
    }),
  );

describe('a spec lease as the checker reads it', () => {
  it('a range: its bounds, and its shortest where one length is read; a single length: no range', () => {
    const { model } = queue();
    expect(model.expiryRangeMs?.({ op: 'take', n: 3 })).toEqual([100, 300]);
    expect(model.expiryMs({ op: 'take', n: 3 })).toBe(100);
    expect(model.expiryRangeMs?.({ op: 'mark', n: 2 })).toBeUndefined();
    expect(model.expiryMs({ op: 'mark', n: 2 })).toBe(2000);
  });

  it('the lease a one-lease reader follows: the smallest tag, or the model firstLease', () => {
    const placed = (model: ReturnType<typeof queue>['model']) =>
      model.step(model.step(model.init(), { op: 'take', n: 1 }, 5).state, { op: 'take', n: 1 }, 3).state;
    const plain = queue().model;
    expect(plain.leaseTag(placed(plain))).toBe(3);
    const first = queue({ firstLease: (state: Queue) => state.places[0] ?? null }).model;
    expect(first.leaseTag(placed(first))).toBe(5);
    expect(first.leaseTags?.(placed(first))).toEqual([5, 3]);
  });
});
