/**
 * Zero false alarms, against an independent oracle: the histories come from suites/unit/checker/oracle/,
 * plain stores of each pattern written from the scripts' contract that share no code with the
 * checker or the models, run by concurrent clients whose operations take effect at random instants
 * inside their intervals (some indeterminate, some running after their client gave up). Every such
 * history has a real linearization, so the checker must call each one ok. So that this can fail,
 * each pattern's oracle also plants a corruption no order can explain, chosen by its own reasoning
 * (never by asking the checker), and the checker must reject it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { OpRecord } from '../../../src/history/types.ts';
import type { Model } from '../../../src/model/types.ts';
import { idempotency } from '../../../src/patterns/idempotency/model.ts';
import { lock } from '../../../src/patterns/lock/model.ts';
import { ratelimit } from '../../../src/patterns/ratelimit/model.ts';
import { semaphore } from '../../../src/patterns/semaphore/model.ts';
import { corruptIdempotency, idempotencyStore, type IdemInput } from './oracle/idempotency.ts';
import { corruptLock, lockStore, type LockOpInput } from './oracle/lock.ts';
import { corruptRatelimit, ratelimitStore, type HitInput } from './oracle/ratelimit.ts';
import { corruptSemaphore, semaphoreStore, type SemInput } from './oracle/semaphore.ts';
import { simulate, type Outcome, type Step, type Store } from './oracle/simulate.ts';
import { keyVerdict } from './support/ops.ts';

const KEYS = ['k1', 'k2'] as const;
const owner = fc.constantFrom('A', 'B', 'C');
const idemInput: fc.Arbitrary<IdemInput> = fc.oneof(
  fc.record({
    op: fc.constant('register' as const),
    fingerprint: fc.constantFrom('f1', 'f2'),
    owner,
    leaseMs: fc.constantFrom(0, 1, 20, 50, 200, 5_000),
  }),
  fc.record({
    op: fc.constant('complete' as const),
    owner,
    status: fc.constantFrom('200', '201'),
    body: fc.constantFrom('x', 'y'),
    ttlMs: fc.constantFrom(30, 100, 10_000),
  }),
  fc.record({ op: fc.constant('release' as const), owner }),
  fc.record({ op: fc.constant('renew' as const), owner, leaseMs: fc.constantFrom(1, 20, 50, 200) }),
);
const token = fc.constantFrom('t1', 't2', 't3');
const lockInput: fc.Arbitrary<LockOpInput> = fc.oneof(
  fc.record({ op: fc.constant('acquire' as const), token, ttlMs: fc.constantFrom(1, 20, 50, 1_000) }),
  fc.record({ op: fc.constant('release' as const), token }),
  fc.record({ op: fc.constant('extend' as const), token, ttlMs: fc.constantFrom(0, 20, 50, 1_000) }),
);
// One limit per key, as a deployment has: the limiter's answers assume it.
const LIMIT: Record<string, number> = { k1: 2, k2: 3 };
const hitInput = (key: string): HitInput => ({ op: 'hit', limit: LIMIT[key], windowSeconds: 1 });
const semInput = (key: string, reacquire?: 'counts'): fc.Arbitrary<SemInput> => {
  const holder = fc.constantFrom('s1', 's2', 's3', 's4');
  const ttlMs = fc.constantFrom(1, 20, 50, 1_000);
  return fc.oneof(
    fc
      .record({ op: fc.constant('acquire' as const), token: holder, limit: fc.constant(LIMIT[key]), ttlMs })
      .map((a) => (reacquire ? { ...a, reacquire } : a)),
    fc.record({ op: fc.constant('release' as const), token: holder }),
    fc.record({ op: fc.constant('refresh' as const), token: holder, ttlMs }),
  );
};

// Unbiased: fast-check's bias towards the first constants would make nearly every operation ok.
const outcome = fc.noBias(fc.constantFrom<Outcome>('ok', 'ok', 'ok', 'ok', 'ok', 'info-applied', 'info-lost', 'fail'));

/** Up to 30 operations of 4 clients on 2 keys; durations up to 60 ms, so operations overlap heavily. */
function steps<I>(input: (key: string) => fc.Arbitrary<I>, maxThinkMs: number): fc.Arbitrary<Step<I>[]> {
  const step = fc.constantFrom(...KEYS).chain((key) =>
    fc.record({
      client: fc.nat(3),
      key: fc.constant(key),
      input: input(key),
      thinkMs: fc.nat(maxThinkMs),
      durationMs: fc.nat(60),
      // Uniform over the interval: fc.double is uniform over the doubles, nearly all of them tiny,
      // which put almost every effect at its invocation.
      effect: fc.noBias(fc.integer({ min: 0, max: 1_000 })).map((permille) => permille / 1_000),
      outcome,
    }),
  );
  // size 'max': fast-check's default size would keep arrays to about 10, rarely a crowd on one key.
  return fc.array(step, { minLength: 1, maxLength: 30, size: 'max' });
}

interface Pattern<I> {
  readonly model: Model<any, any, any>;
  readonly store: () => Store<I>;
  readonly steps: fc.Arbitrary<Step<I>[]>;
}

const PATTERNS = {
  idempotency: {
    model: idempotency,
    store: idempotencyStore,
    steps: steps(() => idemInput, 40),
  } satisfies Pattern<IdemInput>,
  lock: { model: lock, store: lockStore, steps: steps(() => lockInput, 40) } satisfies Pattern<LockOpInput>,
  // Thinking up to 400 ms, so that one-second windows end within a history.
  ratelimit: {
    model: ratelimit,
    store: ratelimitStore,
    steps: steps((key) => fc.constant(hitInput(key)), 400),
  } satisfies Pattern<HitInput>,
  semaphore: { model: semaphore, store: semaphoreStore, steps: steps(semInput, 40) } satisfies Pattern<SemInput>,
  // The semantic variant redis-semaphore declares: a holder's acquire counts against the limit.
  'semaphore (reacquire counts)': {
    model: semaphore,
    store: semaphoreStore,
    steps: steps((key) => semInput(key, 'counts'), 40),
  } satisfies Pattern<SemInput>,
};

describe('zero false alarms on histories an independent simulator produced', () => {
  for (const [name, pattern] of Object.entries(PATTERNS) as [string, Pattern<unknown>][]) {
    it(name, () => {
      fc.assert(
        fc.property(pattern.steps, fc.constantFrom(0, 1, 25), (planned, eps) => {
          const { history } = simulate(pattern.store(), planned);
          const result = check(history, pattern, { eps, minimise: false });
          expect(result.violations).toEqual([]);
          expect(result.verdict).toBe('ok');
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('the simulated histories are not trivially legal', () => {
  // Seeded samples: what the property above was fed, in kind. Each condition is one a checker
  // could get wrong (an order against real time, an indeterminate op, a lease running out).
  for (const [name, pattern] of Object.entries(PATTERNS) as [string, Pattern<unknown>][]) {
    it(`${name}: overlapping operations, effects after the client gave up, and expiries all occur`, () => {
      let overlapping = 0;
      let lateEffects = 0;
      let answersChangedByTime = 0;
      for (const planned of fc.sample(pattern.steps, { numRuns: 200, seed: 19 })) {
        const { history, tookEffectAt } = simulate(pattern.store(), planned);
        const ops = history.ops;
        if (
          ops.some((a, i) =>
            ops.some(
              (b, j) => i < j && a.key === b.key && a.invokedAt <= b.completedAt && b.invokedAt <= a.completedAt,
            ),
          )
        )
          overlapping++;
        if (ops.some((op) => op.outcome === 'info' && (tookEffectAt.get(op.id) ?? -Infinity) > op.completedAt))
          lateEffects++;
        // Run the same effects with every lease made endless: where an answer differs, time decided it.
        const frozen = simulate(
          pattern.store(),
          planned.map((s) => ({ ...s, input: endless(s.input) })),
        );
        const answers = new Map(frozen.history.ops.map((op) => [op.id, op.output]));
        if (ops.some((op) => op.outcome === 'ok' && JSON.stringify(answers.get(op.id)) !== JSON.stringify(op.output)))
          answersChangedByTime++;
      }
      // Seed 19 gave 143-175 of 200, 138-142 and 85-126: far from these floors.
      expect(overlapping).toBeGreaterThan(100);
      expect(lateEffects).toBeGreaterThan(100);
      expect(answersChangedByTime).toBeGreaterThan(50);
    });
  }
});

/** The same input with its lease, TTL or window made too long to run out within a history. */
function endless<I>(input: I): I {
  const i = input as Record<string, unknown>;
  if (typeof i.windowSeconds === 'number') return { ...i, windowSeconds: 1e9 } as I;
  for (const field of ['leaseMs', 'ttlMs'])
    if (typeof i[field] === 'number' && (i[field] as number) > 0) return { ...i, [field]: 1e12 } as I;
  return input;
}

describe('a corruption the simulator plants is rejected', () => {
  function rejected<I>(pattern: Pattern<I>, corrupt: (op: OpRecord<I, unknown>) => OpRecord<I, unknown>): void {
    fc.assert(
      fc.property(pattern.steps, fc.nat(), fc.constantFrom(0, 1, 25), (planned, pick, eps) => {
        const { history } = simulate(pattern.store(), planned);
        const okOps = history.ops.filter((op) => op.outcome === 'ok');
        fc.pre(okOps.length > 0);
        const victim = okOps[pick % okOps.length];
        const corrupted = corrupt(victim);
        const result = check({ ...history, ops: history.ops.map((op) => (op === victim ? corrupted : op)) }, pattern, {
          eps,
          minimise: false,
        });
        expect(result.verdict).toBe('illegal');
        expect(keyVerdict(result, victim.key).verdict).toBe('illegal');
      }),
      { numRuns: 150 },
    );
  }

  it('idempotency: a hit with a body nobody stored, or an owner nobody registered answered 1', () =>
    rejected(PATTERNS.idempotency, corruptIdempotency));
  it('lock: a release answered 1 for a token nobody acquired', () => rejected(PATTERNS.lock, corruptLock));
  it('semaphore: a release answered 1 for a token nobody acquired', () =>
    rejected(PATTERNS.semaphore, corruptSemaphore));
  it('semaphore (reacquire counts): a release answered 1 for a token nobody acquired', () =>
    rejected(PATTERNS['semaphore (reacquire counts)'], corruptSemaphore));
  it('semaphore (reacquire counts): the same histories without the declaration are judged by renewal, and some are illegal', () => {
    // A holder refused on a full set is what only the declared variant explains: the variant is read from the input.
    let illegal = 0;
    for (const planned of fc.sample(PATTERNS['semaphore (reacquire counts)'].steps, { numRuns: 200, seed: 23 })) {
      const { history } = simulate(semaphoreStore(), planned);
      const undeclared = history.ops.map((op) => ({
        ...op,
        input: { ...(op.input as SemInput), reacquire: undefined },
      }));
      if (check({ ...history, ops: undeclared }, PATTERNS.semaphore, { eps: 0, minimise: false }).verdict === 'illegal')
        illegal++;
    }
    // Seed 23 gave 7 of 200 (a holder refused on a full set needs a full set and that holder live).
    expect(illegal).toBeGreaterThan(0);
  });
  it('ratelimit: an allowed hit answered 0 with fewer than the limit of other hits invoked before its reply', () => {
    fc.assert(
      fc.property(PATTERNS.ratelimit.steps, fc.constantFrom(0, 1, 25), (planned, eps) => {
        // The first operation runs alone, so an allowed hit no other could have preceded usually exists.
        const { history } = simulate(ratelimitStore(), planned, { quietFirst: true });
        const planted = corruptRatelimit(history.ops as OpRecord<HitInput, unknown>[]);
        fc.pre(planted !== undefined);
        const ops = history.ops.map((op) => (op === planted!.original ? planted!.corrupted : op));
        const result = check({ ...history, ops }, PATTERNS.ratelimit, { eps, minimise: false });
        expect(result.verdict).toBe('illegal');
        expect(keyVerdict(result, planted!.original.key).verdict).toBe('illegal');
      }),
      { numRuns: 150 },
    );
  });
});
