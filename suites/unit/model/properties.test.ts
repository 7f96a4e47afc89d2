import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Model } from '../../../src/model/index.ts';
import { models } from '../../../src/patterns/models.ts';
import { liveLeaseTags } from '../../../src/model/leases.ts';

const owner = fc.constantFrom('o1', 'o2', 'o3');
const ms = fc.integer({ min: -5, max: 1000 });
const text = fc.constantFrom('', 'a', 'a b', '{"id":1}', 'ü');

const inputs: Record<keyof typeof models, fc.Arbitrary<unknown>> = {
  idempotency: fc.oneof(
    fc.record({ op: fc.constant('register'), fingerprint: text, owner, leaseMs: ms }),
    fc.record({ op: fc.constant('complete'), owner, status: fc.constantFrom('', '200', '201'), body: text, ttlMs: ms }),
    fc.record({ op: fc.constant('release'), owner }),
    fc.record({ op: fc.constant('renew'), owner, leaseMs: ms }),
  ),
  lock: fc.oneof(
    fc.record({ op: fc.constant('acquire'), token: owner, ttlMs: fc.integer({ min: 1, max: 1000 }) }),
    fc.record({ op: fc.constant('release'), token: owner }),
    fc.record({ op: fc.constant('extend'), token: owner, ttlMs: ms }),
  ),
  // One limit per key, as the model requires (see src/patterns/ratelimit/model.ts).
  ratelimit: fc.record({
    op: fc.constant('hit'),
    limit: fc.constant(3),
    windowSeconds: fc.integer({ min: -1, max: 5 }),
  }),
  semaphore: fc.oneof(
    fc.record({
      op: fc.constant('acquire'),
      token: owner,
      limit: fc.constant(2),
      ttlMs: fc.integer({ min: 1, max: 1000 }),
    }),
    fc.record({ op: fc.constant('release'), token: owner }),
    fc.record({ op: fc.constant('refresh'), token: owner, ttlMs: fc.integer({ min: 1, max: 1000 }) }),
  ),
  // One limit per key, as for the fixed window.
  gcra: fc.record({ op: fc.constant('hit'), burst: fc.constant(2), rate: fc.constant(5), periodMs: fc.constant(1000) }),
};

/** A run of steps and expiries; an expiry names the current lease (current) or any old tag. */
type Action = { step: unknown } | { expire: 'current' | number };

function actions(name: keyof typeof models): fc.Arbitrary<Action[]> {
  return fc.array(
    fc.oneof(
      { arbitrary: inputs[name].map((step) => ({ step })), weight: 4 },
      { arbitrary: fc.oneof(fc.constant('current' as const), fc.nat(30)).map((expire) => ({ expire })), weight: 1 },
    ),
    { maxLength: 30 },
  );
}

/** Every state a run of actions passes through. */
function statesOf(model: Model<unknown, unknown, unknown>, run: Action[]): unknown[] {
  let state = model.init();
  const seen = [state];
  run.forEach((action, i) => {
    if ('step' in action) state = model.step(state, action.step, i + 1).state;
    else {
      const tag = action.expire === 'current' ? model.leaseTag(state) : action.expire;
      if (tag !== null) state = model.expire(state, tag);
    }
    seen.push(state);
  });
  return seen;
}

for (const [name, model] of Object.entries(models) as [keyof typeof models, Model<unknown, unknown, unknown>][]) {
  describe(`${name} model properties`, () => {
    it('hashState is equal exactly when describeState is equal', () => {
      fc.assert(
        fc.property(actions(name), actions(name), (a, b) => {
          const states = [...statesOf(model, a), ...statesOf(model, b)];
          for (const x of states) {
            for (const y of states) {
              expect(model.hashState(x) === model.hashState(y)).toBe(model.describeState(x) === model.describeState(y));
            }
          }
        }),
        { numRuns: 60 },
      );
    });

    it('expiring a tag that is not a live lease is a no-op; expiring every live one gives init()', () => {
      fc.assert(
        fc.property(actions(name), fc.nat(40), (run, tag) => {
          for (const state of statesOf(model, run)) {
            const live = liveLeaseTags(model, state);
            if (!live.includes(tag)) expect(model.expire(state, tag)).toBe(state);
            if (live.length > 0) {
              const expired = live.reduce((s, t) => model.expire(s, t), state);
              expect(model.hashState(expired)).toBe(model.hashState(model.init()));
            }
          }
        }),
        { numRuns: 100 },
      );
    });

    it('a step leaves no lease, its own lease (with an expiryMs), or leases it found', () => {
      fc.assert(
        fc.property(actions(name), inputs[name], (run, input) => {
          const states = statesOf(model, run);
          const before = states[states.length - 1];
          const { state, output } = model.step(before, input, 1000);
          const tags = liveLeaseTags(model, state);
          for (const tag of tags) expect([1000, ...liveLeaseTags(model, before)]).toContain(tag);
          if (tags.includes(1000)) expect(model.expiryMs(input)).toBeTypeOf('number');
          // Whatever the model answers, it accepts that answer in the shape ioredis returns it.
          expect(model.outputMatches(output, output)).toBe(true);
          expect(model.describeOutput(output).length).toBeGreaterThan(0);
        }),
        { numRuns: 150 },
      );
    });

    it('is pure: the same run gives the same states and leaves its inputs untouched', () => {
      fc.assert(
        fc.property(actions(name), (run) => {
          const frozen = JSON.stringify(run);
          const first = statesOf(model, run).map((s) => model.hashState(s));
          const second = statesOf(model, run).map((s) => model.hashState(s));
          expect(second).toEqual(first);
          expect(JSON.stringify(run)).toBe(frozen);
        }),
        { numRuns: 50 },
      );
    });
  });
}
